import { createHash } from 'node:crypto';
import {
  termWeight,
  PaperlistOptionsError,
  type Paper,
  type PaperPage,
  type PaperAnnotations,
  type PaperQuery,
  type PaperSource,
  type SourceCallOptions,
  type PaperChange,
  type WritableSource,
  type WriteResult,
  checkChanges,
  netChanges,
  type FacetCounts,
  type FacetField,
} from '@paperlist/core';
import { queryRows, type Queryable } from './db.js';
import { importPapers, type ImportInput, type ImportOptions, type ImportResult } from './import.js';
import {
  cappedCountStatement,
  countStatement,
  documentFrequencyStatement,
  estimateStatement,
  facetStatement,
  hasConditions,
  pageStatement,
  SELECT_PAPER,
  wordsCanMatch,
  type ResolvedTerm,
  type Scoring,
  type Statement,
} from './list-sql.js';
import { assertMigrated, migrate, type MigrateResult } from './migrations.js';
import { QueryRunner } from './query-runner.js';
import { DEFAULT_SCHEMA, schemaNames, type SchemaNames } from './schema.js';
import { CatalogueCache, countKey, resolveTerms } from './term-resolver.js';
import { callDeadline, untilAborted } from './statement-timeout.js';
import { isUnstorable } from './unstorable-text.js';
import { annotationsOfRow, annotationsStatement, type AnnotationsRow } from './annotations-sql.js';
import { MergePool } from './merge-thread/merge-pool.js';
import { mergeInThread, type MergePostings } from './posting-merge.js';
import { facetFactsOf, listFromPostings, matchingOrdinals, postingsAnswer, postingsMatchable, warmCatalogue, type PostingsContext } from './postings-list.js';
import { factFacets } from './facet-facts.js';
import { needsFacetFacts } from './fact-filters.js';
import { StalePostingsError } from './term-postings.js';
import { ListsCache } from './lists-cache.js';
import { DeltaLog, type DeltaView } from './delta/delta-log.js';
import { deltaMatches } from './delta/delta-matches.js';
import { facetsThroughWrites } from './delta/delta-facets.js';

/**
 * How `count` is computed for a list.
 * - `exact` (default): `count(*)` of the matching papers, whatever it costs.
 * - `estimate-above`: counts at most `threshold + 1` matching papers; when there are more,
 *   answers the planner's estimate (`EXPLAIN`), never less than `threshold + 1`. Bounded cost
 *   for very large match sets, at the price of an approximate `count` (and so of `page=last`
 *   and the last `next` link) above the threshold.
 */
export type CountStrategy = { mode: 'exact' } | { mode: 'estimate-above'; threshold: number };

/** Options of {@link createPostgresSource}. */
export interface PostgresSourceOptions {
  /** The primary: `pg.Pool` (recommended), `pg.Client` or PGlite. Migrations and imports run here. */
  db: Queryable;
  /**
   * Where lists, single papers and the catalogue version are read: a pool on a read replica
   * (or a load balancer over several). Default: `db`.
   */
  readDb?: Queryable;
  /** The schema holding paperlist's tables; default `paperlist`. */
  schema?: string;
  /**
   * Longest time one call (`list` or `get`, all its statements together) may take, in
   * milliseconds; then it is rejected with a `QueryBudgetError` (the handler answers `503`,
   * code `query-budget`, with `Retry-After`) and its running statement is cancelled on the
   * server. Each statement also gets it as `statement_timeout`, the server-side backstop. On
   * PGlite the call is rejected but the statement finishes in the background.
   */
  statementTimeoutMs?: number;
  /**
   * Statements that may wait for a connection of a `pg.Pool` `readDb` when all of its `max`
   * are busy; one more is refused at once with `SourceOverloadedError` (`503`, code
   * `source-busy`). Default: 4 × the pool's `max`.
   */
  maxQueued?: number;
  /** Longest a statement waits for a pool connection before it is refused (`source-busy`); default 1000 ms. */
  queueWaitMs?: number;
  /**
   * While statements wait for a connection of a `pg.Pool` `readDb`, the oldest call that has
   * run this long (milliseconds) and holds a connection is refused with
   * `SourceOverloadedError` (`503`, `source-busy`) and its statement cancelled, so slow
   * queries cannot keep every connection for their whole budget while fast ones wait.
   * Default: half of `statementTimeoutMs` (never without it); `0` sheds any call a waiter finds.
   */
  shedAfterMs?: number;
  /** How counts are computed; default `{ mode: 'exact' }`. */
  count?: CountStrategy;
  /**
   * Whether PostgreSQL may JIT-compile the source's statements (`jit`). Default `false`: the
   * source turns `jit` off on its sessions, because compiling a search's scoring expressions
   * takes about 20 ms on every call, more than most of these statements run. `true` leaves
   * the server's setting alone.
   */
  jit?: boolean;
  /**
   * How long `version()` (the ETag's catalogue version) may be served from memory before it is
   * read again, in milliseconds; default 1000. The read happens in the background: `version()`
   * itself never waits.
   */
  versionTtlMs?: number;
  /**
   * Most bytes of merged posting lists (a search term's papers and occurrences, read from
   * `paperlist_postings`) the source keeps (until the next whole import), least recently used
   * forgotten first; default 128 MiB. A common word of a 500k catalogue takes a few MB.
   */
  postingsCacheBytes?: number;
  /**
   * Read each new catalogue version's per-paper tables (the posting lists' order ranks and the
   * facet facts) in the background as soon as the version is seen, at start and after imports,
   * so that no request spends its budget reading them; default true. Turn it off where every
   * connection of the pool must be the requests' (a test of the pool's queue).
   */
  warmUp?: boolean;
  /**
   * Worker threads that decode and merge posting lists (the CPU-heavy half of a search in the
   * SQL mode), so that the event loop only does I/O; started on first use, ended by `close()`.
   * Default `0`: merged on the event loop itself. On a 2-core host shared with PostgreSQL a
   * thread cost throughput (docs/postgres.md: 175 against 234 req/s) while it shortened the event
   * loop's longest stalls; try `os.availableParallelism() - 1` where
   * the database has cores of its own.
   */
  mergeThreads?: number;
  /**
   * Most papers written since the last whole import (upserts and HTTP writes) that the source
   * holds in memory to answer from the posting lists all the same: the lists without the papers
   * writes took away, plus these, matched and scored here (see docs/postgres.md). Past it, every
   * search is answered by the SQL statements (slower, the same answers) until the next whole
   * import builds the lists again. Default 10,000 (about 10 KB each); `0` turns it off.
   */
  maxWrittenPapers?: number;
}

/** A {@link PaperSource} over PostgreSQL, with the schema's upkeep at hand. */
export interface PostgresSource extends WritableSource {
  /** The schema read. */
  readonly schema: string;
  /** The catalogue's version as last read (`pg:<catalogue>:<counter>`); refreshed in the background. */
  version(): string;
  /** Reads the version now (from the read database). */
  refreshVersion(): Promise<string>;
  /** The tasks and methods of a paper (from `paper_tasks`/`paper_methods`), or `null` when there is no such paper. */
  annotations(id: string, options?: SourceCallOptions): Promise<PaperAnnotations | null>;
  /** Applies pending migrations on the primary. */
  migrate(): Promise<MigrateResult>;
  /** Imports papers on the primary (see {@link importPapers}); the version is refreshed afterwards. */
  importPapers(papers: ImportInput, options?: Omit<ImportOptions, 'schema'>): Promise<ImportResult>;
  /** Ends the merge threads (see `mergeThreads`); the database pools belong to the caller, who ends them. */
  close(): Promise<void>;
}

export interface PaperRow {
  id: string;
  arxiv_id: string | null;
  nips_id: string | null;
  url_abs: string;
  url_pdf: string;
  title: string;
  abstract: string;
  authors: string[];
  published: string | null;
  conference: string | null;
  conference_url_abs: string | null;
  conference_url_pdf: string | null;
  proceeding: string | null;
}

interface StateRow {
  catalogue: string;
  version: string | number;
}

interface FullStateRow extends StateRow {
  /** The posting lists are those of this version (see postings-migration.ts). */
  postings_fresh: boolean;
  /** The facet facts are those of this version (see facet-facts-migration.ts). */
  facets_fresh: boolean;
  /** The version the posting lists were built at (`postings_version`), if there are lists. */
  generation: string | null;
  /** The version the facet facts were built at (`facets_version`). */
  facets_generation: string | null;
  /** The lists' last ordinal (`postings_through`; null on lists imported before schema step 8). */
  through: number | null;
  total: number;
  title: number | null;
  authors: number | null;
  abstract: number | null;
}

/**
 * A PaperSource over paperlist's schema in PostgreSQL (a server through `pg`, or PGlite
 * in-process). The schema must be migrated (see {@link migrate}); the source checks it.
 * Search, filters, ordering and windows all run in SQL; see the package README for how
 * search compares with the in-memory source.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.PAPERLIST_DATABASE_URL });
 * await migrate(pool);
 * const source = await createPostgresSource({ db: pool, readDb: replicaPool, statementTimeoutMs: 2000 });
 * app.use('/api/v1', papersRouter({ source }));
 */
export async function createPostgresSource(options: PostgresSourceOptions): Promise<PostgresSource> {
  const resolved = resolveOptions(options);
  const { db, readDb, names } = resolved;
  const runner = new QueryRunner(readDb, {
    statementTimeoutMs: resolved.statementTimeoutMs,
    jit: resolved.jit,
    gate: {
      ...(resolved.maxQueued === undefined ? {} : { queued: resolved.maxQueued }),
      ...(resolved.queueWaitMs === undefined ? {} : { waitMs: resolved.queueWaitMs }),
      shedAfterMs: resolved.shedAfterMs,
    },
  });
  await assertMigrated(readDb, names.schema);
  // Threads start on a first merge: a source that never searches its lists runs none.
  const mergePool = resolved.mergeThreads === 0 ? null : new MergePool(resolved.mergeThreads);
  const merge: MergePostings = mergePool?.merge ?? mergeInThread;

  let version = '';
  let fetchedAt = 0;
  let refreshing: Promise<string> | undefined;
  const remember = (row: StateRow | undefined): string => {
    if (row === undefined) throw new Error(`paperlist: ${names.state} has no row; run migrate() again`);
    version = `pg:${row.catalogue}:${row.version}`;
    fetchedAt = Date.now();
    return version;
  };
  const refreshVersion = (): Promise<string> => {
    refreshing ??= runner
      .rows<StateRow>(`SELECT catalogue, version::text AS version FROM ${names.state}`, [])
      .then((rows) => remember(rows[0]))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  await refreshVersion();

  const rows = <R>(statement: Statement, signal: AbortSignal | undefined) => runner.rows<R>(statement.text, statement.params, signal);
  // Prepared statements name their schema (their texts do): each schema on a pool prepares its own.
  const statementTag = createHash('sha256').update(names.schema).digest('hex').slice(0, 16);
  /** Document frequencies being counted outside any request (see countMatches). */
  let sharedCounts = 0;
  let cache = new CatalogueCache('');
  /** The current generation of the posting lists, and what writes changed since (null: no lists). */
  let lists: ListsCache | null = null;

  /** The catalogue's version and totals (the total counted here only after writes other than imports). */
  const readState = async (signal: AbortSignal | undefined): Promise<FullStateRow> => {
    const [state] = await runner.rows<FullStateRow>(
      `SELECT catalogue, version::text AS version, coalesce(postings_version = version, false) AS postings_fresh,
        coalesce(facets_version = version, false) AS facets_fresh,
        postings_version::text AS generation, facets_version::text AS facets_generation, postings_through AS through,
        coalesce(total, (SELECT count(*) FROM ${names.papers}))::float8 AS total,
        title_len_sum::float8 AS title, authors_len_sum::float8 AS authors, abstract_len_sum::float8 AS abstract
      FROM ${names.state}`,
      [],
      signal,
      `paperlist_state_${statementTag}`,
    );
    const current = remember(state);
    if (cache.version !== current) cache = new CatalogueCache(current);
    const generation = state!.generation === null ? null : `${state!.generation}`;
    if (generation === null) lists = null;
    else if (lists?.generation !== generation) {
      const through = state!.through === null ? null : Number(state!.through);
      const shared = <R>(text: string, params: unknown[]) => runner.sharedRows<R>(text, params, SHARED_COUNT_TIMEOUT_MS);
      lists = new ListsCache(generation, through === null ? null : new DeltaLog({ names, generation, through, run: shared, maxPapers: resolved.maxWrittenPapers }));
      const facets = state!.facets_generation !== null && `${state!.facets_generation}` === generation;
      if (resolved.warmUp) warmCatalogue(postingsContext(undefined), lists, generation, { postings: true, facets });
    }
    return state!;
  };

  /** What relevance needs: the mean field lengths and each term's idf (document frequencies are cached per version). */
  const scoringFor = async (state: FullStateRow, terms: ResolvedTerm[], signal: AbortSignal | undefined): Promise<Scoring> => {
    let sums = { title: state.title, authors: state.authors, abstract: state.abstract };
    if (sums.title === null || sums.authors === null || sums.abstract === null) {
      [sums] = await runner.rows<typeof sums>(
        `SELECT coalesce(sum(title_len), 0)::float8 AS title, coalesce(sum(authors_len), 0)::float8 AS authors,
          coalesce(sum(abstract_len), 0)::float8 AS abstract FROM ${names.papers}`,
        [],
        signal,
      ) as [typeof sums];
    }
    const total = Number(state.total);
    const n = Math.max(total, 1);
    // A term's document frequency is the count of a query of that term alone.
    const frequencies = await Promise.all(terms.map((term) => countMatches({ terms: [term.term], filters: {} }, [term], state, signal)));
    return {
      averages: { title: Number(sums.title) / n, abstract: Number(sums.abstract) / n, authors: Number(sums.authors) / n },
      idfs: frequencies.map((frequency) => termWeight(total, frequency)),
    };
  };

  /**
   * The number of papers matching terms and filters. Exact counts are remembered for the
   * catalogue's version (paging through a search counts once); `estimate-above` answers
   * estimates above its threshold.
   */
  const countMatches = async (
    query: Pick<PaperQuery, 'terms' | 'filters'>,
    terms: ResolvedTerm[],
    state: FullStateRow,
    signal: AbortSignal | undefined,
  ): Promise<number> => {
    const counted = { ...query, ordering: { kind: 'fields' as const, keys: [] }, offset: 0, limit: 0 };
    if (!hasConditions(counted)) return Number(state.total);
    const key = countKey(query.terms, query.filters);
    const known = cache.counts.get(key);
    if (known !== undefined) {
      try {
        return await untilAborted(known, signal);
      } catch (error) {
        // Another request's count failed (its client went away?): count afresh, unless this one is aborted too.
        if (signal?.aborted) throw error;
      }
    }
    // A term's document frequency (the count of one term alone) is shared by every later
    // search holding that term (its idf, or its count): it runs to its end even when the
    // request that started it gives up, within a larger budget and a few at a time, so that
    // common terms are counted once per catalogue version instead of never.
    const shared = resolved.count.mode === 'exact' && query.terms.length === 1 && !hasConditions({ ...counted, terms: [] }) && sharedCounts < MAX_SHARED_COUNTS;
    const counting = (async () => {
      const strategy = resolved.count;
      if (shared) {
        sharedCounts++;
        try {
          const statement = countStatement(names, counted, terms);
          return Number((await runner.sharedRows<{ count: number }>(statement.text, statement.params, SHARED_COUNT_TIMEOUT_MS))[0]!.count);
        } finally {
          sharedCounts--;
        }
      }
      if (strategy.mode === 'exact') return Number((await rows<{ count: number }>(countStatement(names, counted, terms), signal))[0]!.count);
      const cap = strategy.threshold + 1;
      const capped = Number((await rows<{ count: number }>(cappedCountStatement(names, counted, terms, cap), signal))[0]!.count);
      if (capped < cap) return capped;
      const [plan] = await rows<{ 'QUERY PLAN': unknown }>(estimateStatement(names, counted, terms), signal);
      return Math.max(cap, planRows(plan?.['QUERY PLAN']));
    })();
    const owner = cache;
    owner.counts.set(key, counting);
    owner.trim();
    // A failed count (a timeout, an aborted request) is not remembered.
    counting.catch(() => {
      if (owner.counts.get(key) === counting) owner.counts.delete(key);
    });
    return shared ? untilAborted(counting, signal) : counting;
  };

  const page = async (query: PaperQuery, terms: ResolvedTerm[], scoring: Scoring | null, plan: 'walk' | 'sort', signal: AbortSignal | undefined) =>
    (await rows<PaperRow>(pageStatement(names, query, terms, scoring, plan), signal)).map(toPaper);

  /** One list request; `signal` aborts when the client goes away or the call's budget is spent. */
  const listWithin = async (query: PaperQuery, signal: AbortSignal | undefined): Promise<PaperPage> => {
    // A filter value no stored paper can hold matches nothing (see unstorable-text.ts).
    const { arxivId, titleContains, abstractContains } = query.filters;
    const nothing = (): PaperPage => withFacets({ count: 0, results: [] }, noFacets(query.facets));
    if ([arxivId, titleContains, abstractContains].some((value) => value !== undefined && isUnstorable(value))) return nothing();
    const state = await readState(signal);
    const run = <R>(text: string, params: unknown[]) => runner.rows<R>(text, params, signal);
    const current = lists;
    const factsUsable = state.facets_generation !== null && `${state.facets_generation}` === current?.generation;
    // Tasks and methods are written beside papers, without new ordinals: their facts hold until the first write.
    const annotated = query.filters.tasks !== undefined || query.filters.methods !== undefined;
    if (current !== null && (state.postings_fresh || !annotated) && state.title !== null && state.authors !== null && state.abstract !== null && postingsAnswer(query) && (factsUsable || !needsFacetFacts(query.filters))) {
      try {
        // Writes since the lists: their delta (null when it cannot be followed; SQL answers).
        const delta = state.postings_fresh ? null : ((await current.delta?.view(String(state.version))) ?? undefined);
        if (delta === undefined || delta?.sums === null) throw new StalePostingsError('paperlist: the writes since the lists are not followed');
        return await listWithPostings(query, state, current, delta, signal);
      } catch (error) {
        // Lists built again meanwhile, or a page the lists cannot place: the word texts answer.
        if (!(error instanceof StalePostingsError)) throw error;
      }
    }
    const terms = query.terms.length === 0 ? [] : await resolveTerms(names, query.terms, cache, run);
    // A term none of whose words are in any paper (and no arXiv id): nothing matches.
    if (terms.some((term) => !wordsCanMatch(term) && term.term.arxivId === null)) return nothing();
    const relevance = query.ordering.kind === 'relevance' && terms.length > 0 && query.limit > 0;
    const [count, scoring, facets] = await Promise.all([
      countMatches(query, terms, state, signal),
      relevance ? scoringFor(state, terms, signal) : null,
      facetsOf(query, terms, state, signal),
    ]);
    if (query.limit === 0 || query.offset >= count) return withFacets({ count, results: [] }, facets);
    // Walking an ordering index visits about (offset + limit) * total / count papers; finding
    // the matches first visits count papers, then sorts them.
    const total = Math.max(Number(state.total), 1);
    const plan = (query.offset + query.limit) * (total / Math.max(count, 1)) <= 2 * count ? 'walk' : 'sort';
    return withFacets({ count, results: await page(query, terms, scoring, plan, signal) }, facets);
  };

  /** What reading the posting lists and facts needs, for one request. */
  const postingsContext = (signal: AbortSignal | undefined): PostingsContext => ({
    names,
    shared: (text, params) => runner.sharedRows(text, params, SHARED_COUNT_TIMEOUT_MS),
    page: (statement, name) => runner.rows(statement.text, statement.params, signal, `${name}_${statementTag}`),
    cacheBytes: resolved.postingsCacheBytes,
    merge,
    signal,
  });

  /**
   * A search of single words, counted and ranked from the posting lists (see postings-list.ts)
   * and the papers written since them (`delta`), its facets from the facet facts while no write
   * changed the catalogue since them.
   */
  const listWithPostings = async (query: PaperQuery, state: FullStateRow, current: ListsCache, delta: DeltaView | null, signal: AbortSignal | undefined): Promise<PaperPage> => {
    const totals = delta ?? { total: Number(state.total), sums: { title: Number(state.title), authors: Number(state.authors), abstract: Number(state.abstract) } };
    const n = Math.max(totals.total, 1);
    const sums = totals.sums!;
    const context = postingsContext(signal);
    const { generation } = current;
    const averages = { title: sums.title / n, abstract: sums.abstract / n, authors: sums.authors / n };
    const { count, rows: found, matches, written } = await listFromPostings<PaperRow>(context, current, query, { generation, total: totals.total, averages, delta });
    const page: PaperPage = { count, results: found.map(toPaper) };
    if (query.facets === undefined || query.facets.length === 0) return page;
    return withFacets(page, await facetsFromFacts(query, state, current, delta, matches, written, context));
  };

  /**
   * Facets from the facet facts of the lists' generation over `matches` (null: every paper),
   * with the papers written since (`written`, matching) counted in. Tasks and methods are
   * written beside papers without new ordinals: their facets come from the facts only while no
   * write happened since the lists. Else {@link StalePostingsError}: SQL counts them.
   */
  const facetsFromFacts = async (query: PaperQuery, state: FullStateRow, current: ListsCache, delta: DeltaView | null, matches: Int32Array | null, written: readonly Paper[], context: PostingsContext): Promise<FacetCounts> => {
    const fields = query.facets ?? [];
    const { generation } = current;
    const annotated = fields.some((field) => field === 'task' || field === 'method');
    if (state.facets_generation === null || `${state.facets_generation}` !== generation || (annotated && !state.postings_fresh)) {
      throw new StalePostingsError('paperlist: the facet facts are stale');
    }
    const factsOf = (field: FacetField) => facetFactsOf(context, current, field, generation);
    if (delta === null || delta.unchanged) return factFacets(fields, query.facetLimit, matches, factsOf);
    return facetsThroughWrites(fields, query.facetLimit, matches, delta, written, factsOf);
  };

  /**
   * The facets the query asked for: counted from the facet facts over the posting lists' match
   * set where both serve it (see facet-facts.ts), else one GROUP BY each, the `NULL` bucket
   * always present.
   */
  const facetsOf = async (query: PaperQuery, terms: ResolvedTerm[], state: FullStateRow, signal: AbortSignal | undefined): Promise<FacetCounts | undefined> => {
    if (query.facets === undefined || query.facets.length === 0) return undefined;
    const current = lists;
    const annotated = query.filters.tasks !== undefined || query.filters.methods !== undefined;
    const factsUsable = state.facets_generation !== null && `${state.facets_generation}` === current?.generation;
    if (current !== null && factsUsable && postingsMatchable(query) && (state.postings_fresh || !annotated)) {
      try {
        const context = postingsContext(signal);
        const delta = state.postings_fresh ? null : ((await current.delta?.view(String(state.version))) ?? undefined);
        if (delta === undefined) throw new StalePostingsError('paperlist: the writes since the lists are not followed');
        const matches = await matchingOrdinals(context, current, query, current.generation);
        const written = delta === null || delta.unchanged ? [] : deltaMatches(delta, query).matches.map((match) => match.paper.paper);
        return await facetsFromFacts(query, state, current, delta, matches, written, context);
      } catch (error) {
        // Facts of another generation (an import landed meanwhile), or what they cannot say: SQL counts them.
        if (!(error instanceof StalePostingsError)) throw error;
      }
    }
    const out: FacetCounts = {};
    await Promise.all(
      query.facets.map(async (field) => {
        const statement = facetStatement(names, query, terms, field);
        const rows = await runner.rows<{ value: string | null; count: number }>(statement.text, statement.params, signal);
        const buckets = rows.filter((row) => row.value !== null).map((row) => ({ value: row.value, count: Number(row.count) }));
        buckets.push({ value: null, count: Number(rows.find((row) => row.value === null)?.count ?? 0) });
        out[field] = buckets;
      }),
    );
    return out;
  };

  // The catalogue's per-version tables start loading now, before the first request needs them.
  if (resolved.warmUp) readState(undefined).catch(() => {});

  return {
    schema: names.schema,
    version() {
      if (Date.now() - fetchedAt > resolved.versionTtlMs) void refreshVersion().catch(() => {});
      return version;
    },
    refreshVersion,
    async list(query: PaperQuery, callOptions: SourceCallOptions = {}): Promise<PaperPage> {
      const deadline = callDeadline(callOptions.signal, resolved.statementTimeoutMs);
      try {
        return await listWithin(query, deadline.signal);
      } finally {
        deadline.done();
      }
    },
    async get(id: string, callOptions: SourceCallOptions = {}): Promise<Paper | null> {
      // No stored id holds U+0000 or a lone surrogate: not found, as on the memory source.
      if (isUnstorable(id)) return null;
      const deadline = callDeadline(callOptions.signal, resolved.statementTimeoutMs);
      try {
        const [row] = await runner.rows<PaperRow>(`SELECT ${SELECT_PAPER} FROM ${names.papers} WHERE id = $1`, [id], deadline.signal);
        return row === undefined ? null : toPaper(row);
      } finally {
        deadline.done();
      }
    },
    async annotations(id: string, callOptions: SourceCallOptions = {}): Promise<PaperAnnotations | null> {
      if (isUnstorable(id)) return null;
      const deadline = callDeadline(callOptions.signal, resolved.statementTimeoutMs);
      try {
        const [row] = await runner.rows<AnnotationsRow>(annotationsStatement(names), [id], deadline.signal);
        return annotationsOfRow(row);
      } finally {
        deadline.done();
      }
    },
    migrate: () => migrate(db, { schema: names.schema }),
    async write(changes: readonly PaperChange[]): Promise<WriteResult> {
      checkChanges(changes);
      // Each id once: the paper it ends with, or its deletion; counted against what is stored
      // when the write holds the catalogue's lock, so concurrent writers count exactly.
      let result: WriteResult = { created: 0, updated: 0, deleted: 0 };
      // Filled once the write holds the lock; an array, so that the import reads only its words (see import.ts).
      const upserted: Paper[] = [];
      const touched = [...new Set(changes.map((change) => (change.op === 'upsert' ? change.paper.id : change.id)))].filter((id) => !isUnstorable(id));
      await importPapers(db, upserted, {
        schema: names.schema,
        upsert: true,
        onLocked: async (tx) => {
          const stored = new Set((await queryRows<{ id: string }>(tx, `SELECT id FROM ${names.papers} WHERE id = ANY($1::text[])`, [touched])).map((row) => row.id));
          const net = netChanges(changes, (id) => stored.has(id));
          result = net.result;
          for (const paper of net.final.values()) if (paper !== null) upserted.push(paper);
          return { remove: [...net.final].filter(([id, paper]) => paper === null && stored.has(id)).map(([id]) => id) };
        },
      });
      await refreshVersion().catch(() => {});
      return result;
    },
    async importPapers(papers, importOptions = {}) {
      const result = await importPapers(db, papers, { ...importOptions, schema: names.schema });
      await refreshVersion().catch(() => {});
      return result;
    },
    close: () => mergePool?.close() ?? Promise.resolve(),
  };
}

/** Document frequencies counted at once outside requests, each within this many milliseconds (see countMatches). */
const MAX_SHARED_COUNTS = 2;
const SHARED_COUNT_TIMEOUT_MS = 30_000;
/** Default of `maxWrittenPapers`. */
const DEFAULT_MAX_WRITTEN_PAPERS = 10_000;
/** Default of `postingsCacheBytes`. */
const DEFAULT_POSTINGS_CACHE_BYTES = 128 * 1024 * 1024;

interface ResolvedOptions {
  db: Queryable;
  readDb: Queryable;
  names: SchemaNames;
  statementTimeoutMs: number | undefined;
  count: CountStrategy;
  jit: boolean;
  versionTtlMs: number;
  maxQueued: number | undefined;
  queueWaitMs: number | undefined;
  shedAfterMs: number | undefined;
  postingsCacheBytes: number;
  warmUp: boolean;
  mergeThreads: number;
  maxWrittenPapers: number;
}

function resolveOptions(options: PostgresSourceOptions): ResolvedOptions {
  const fail = (code: string, message: string): never => {
    throw new PaperlistOptionsError(code, `paperlist: ${message}`);
  };
  if (typeof options !== 'object' || options === null) fail('invalid-options', 'createPostgresSource needs an options object');
  const isQueryable = (value: unknown) => typeof (value as Queryable | null)?.query === 'function';
  if (!isQueryable(options.db)) fail('invalid-db', '"db" must be a pg.Pool, a pg.Client or a PGlite instance (anything with query(text, params))');
  if (options.readDb !== undefined && !isQueryable(options.readDb)) {
    fail('invalid-read-db', '"readDb" must be a pg.Pool, a pg.Client or a PGlite instance (anything with query(text, params))');
  }
  const timeout = options.statementTimeoutMs;
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && timeout > 0)) {
    fail('invalid-statement-timeout', `"statementTimeoutMs" must be a positive integer of milliseconds, got ${String(timeout)}`);
  }
  const maxQueued = options.maxQueued;
  if (maxQueued !== undefined && !(Number.isSafeInteger(maxQueued) && maxQueued >= 0)) {
    fail('invalid-max-queued', `"maxQueued" must be a non-negative integer, got ${String(maxQueued)}`);
  }
  const queueWaitMs = options.queueWaitMs;
  if (queueWaitMs !== undefined && !(Number.isFinite(queueWaitMs) && queueWaitMs >= 0)) {
    fail('invalid-queue-wait', `"queueWaitMs" must be a non-negative number of milliseconds, got ${String(queueWaitMs)}`);
  }
  const shedAfterMs = options.shedAfterMs ?? (timeout === undefined ? undefined : Math.ceil(timeout / 2));
  if (shedAfterMs !== undefined && !(Number.isFinite(shedAfterMs) && shedAfterMs >= 0)) {
    fail('invalid-shed-after', `"shedAfterMs" must be a non-negative number of milliseconds, got ${String(shedAfterMs)}`);
  }
  const count = options.count ?? { mode: 'exact' as const };
  if (count.mode === 'estimate-above') {
    if (!(Number.isSafeInteger(count.threshold) && count.threshold >= 0)) {
      fail('invalid-count', `"count.threshold" must be a non-negative integer, got ${String(count.threshold)}`);
    }
  } else if (count.mode !== 'exact') {
    fail('invalid-count', `"count.mode" must be "exact" or "estimate-above", got ${JSON.stringify((count as { mode: unknown }).mode)}`);
  }
  const jit = options.jit ?? false;
  if (typeof jit !== 'boolean') fail('invalid-jit', `"jit" must be true or false, got ${JSON.stringify(jit)}`);
  const ttl = options.versionTtlMs ?? 1000;
  if (!(Number.isFinite(ttl) && ttl >= 0)) fail('invalid-version-ttl', `"versionTtlMs" must be a non-negative number, got ${String(ttl)}`);
  const postingsCacheBytes = options.postingsCacheBytes ?? DEFAULT_POSTINGS_CACHE_BYTES;
  if (!(Number.isSafeInteger(postingsCacheBytes) && postingsCacheBytes >= 0)) {
    fail('invalid-postings-cache', `"postingsCacheBytes" must be a non-negative integer, got ${String(options.postingsCacheBytes)}`);
  }
  const mergeThreads = options.mergeThreads ?? 0;
  if (!(Number.isSafeInteger(mergeThreads) && mergeThreads >= 0)) {
    fail('invalid-merge-threads', `"mergeThreads" must be a non-negative integer, got ${String(options.mergeThreads)}`);
  }
  const maxWrittenPapers = options.maxWrittenPapers ?? DEFAULT_MAX_WRITTEN_PAPERS;
  if (!(Number.isSafeInteger(maxWrittenPapers) && maxWrittenPapers >= 0)) {
    fail('invalid-max-written-papers', `"maxWrittenPapers" must be a non-negative integer, got ${String(options.maxWrittenPapers)}`);
  }
  const warmUp = options.warmUp ?? true;
  if (typeof warmUp !== 'boolean') fail('invalid-warm-up', `"warmUp" must be true or false, got ${JSON.stringify(warmUp)}`);
  return {
    db: options.db,
    readDb: options.readDb ?? options.db,
    postingsCacheBytes,
    warmUp,
    mergeThreads,
    maxWrittenPapers,
    names: schemaNames(options.schema ?? DEFAULT_SCHEMA),
    statementTimeoutMs: timeout,
    count,
    jit,
    versionTtlMs: ttl,
    maxQueued,
    queueWaitMs,
    shedAfterMs,
  };
}

/** The 13 fields of a row, in the API's order. */
export function toPaper(row: PaperRow): Paper {
  return {
    id: row.id,
    arxiv_id: row.arxiv_id,
    nips_id: row.nips_id,
    url_abs: row.url_abs,
    url_pdf: row.url_pdf,
    title: row.title,
    abstract: row.abstract,
    authors: row.authors,
    published: row.published,
    conference: row.conference,
    conference_url_abs: row.conference_url_abs,
    conference_url_pdf: row.conference_url_pdf,
    proceeding: row.proceeding,
  };
}

/** `Plan Rows` of the top node of an `EXPLAIN (FORMAT JSON)` answer (a parsed or a textual JSON). */
function planRows(plan: unknown): number {
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : plan;
  const rows = (parsed as [{ Plan?: { 'Plan Rows'?: unknown } }] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' && Number.isFinite(rows) ? Math.round(rows) : 0;
}

/** The page with its facets, when there are any. */
function withFacets(page: PaperPage, facets: FacetCounts | undefined): PaperPage {
  return facets === undefined ? page : { ...page, facets };
}

/** The facets of an empty match set: only empty `null` buckets. */
function noFacets(fields: readonly FacetField[] | undefined): FacetCounts | undefined {
  if (fields === undefined || fields.length === 0) return undefined;
  const out: FacetCounts = {};
  for (const field of fields) out[field] = [{ value: null, count: 0 }];
  return out;
}
