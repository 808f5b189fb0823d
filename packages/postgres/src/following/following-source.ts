import {
  deletes,
  PaperlistOptionsError,
  upserts,
  type Paper,
  type PaperAnnotations,
  type PaperChange,
  type PaperPage,
  type PaperQuery,
  type PaperRecord,
  type SourceCallOptions,
  type WritableSource,
  type WriteResult,
} from '@paperlist/core';
import { createMemorySourceFromStream, type IndexedMemorySource } from '@paperlist/core/node';
import type { Queryable } from '../db.js';
import { changeLogNames } from '../change-log.js';
import { assertMigrated } from '../migrations.js';
import { createPostgresSource, type PostgresSource } from '../postgres-source.js';
import { DEFAULT_SCHEMA, schemaNames, type SchemaNames } from '../schema.js';
import { ChangeListener } from './change-listener.js';
import { readAnnotations, readHead, readRange, streamPapers, withSnapshot, type LogHead } from './snapshot-reads.js';

/** Options of {@link createFollowingSource}. */
export interface FollowingSourceOptions {
  /** The schema holding paperlist's tables; default `paperlist`. */
  schema?: string;
  /** Query threads of the memory source (see `createMemorySource` of `@paperlist/core/node`); default 0. */
  threads?: number;
  /** Milliseconds of work one query may take (the memory source's `budgetMs`); default 1,000. */
  budgetMs?: number;
  /** With threads: queries that may wait for a free thread (the memory source's `maxQueue`). */
  maxQueue?: number;
  /**
   * How often the log is read even without a notification, in milliseconds; default 1,000. It
   * covers notifications that never came (a connection that dropped unnoticed, a handle that
   * cannot listen), and is one cheap statement when nothing changed.
   */
  pollIntervalMs?: number;
  /**
   * Changed papers in one catch-up above which the whole catalogue is reloaded instead of
   * applied paper by paper (a write rebuilds the index anyway, and a reload streams); default 50,000.
   */
  reloadAbove?: number;
  /** Rows per `FETCH` while loading the catalogue; default 5,000. */
  fetchSize?: number;
  /**
   * How long `write` waits, after PostgreSQL committed the batch, for this source to show it,
   * in milliseconds (default 10,000): it resolves then anyway, since the batch is committed and
   * will be applied once the database answers again.
   */
  writeVisibleWithinMs?: number;
  /** Told what the source does: loads and reloads, the connection lost and back, failed catch-ups. */
  onEvent?: (event: FollowEvent) => void;
}

/** Something a following source did, for logs. */
export type FollowEvent =
  | { type: 'loading'; reason: string }
  | { type: 'loaded'; papers: number; sequence: number; ms: number; reason: string }
  | { type: 'connected'; again: boolean }
  | { type: 'disconnected'; error: Error }
  | { type: 'catch-up-failed'; error: Error };

/** Where a following source stands, for `/healthz` and metrics. */
export interface FollowState {
  /** Whether the source is listening for changes and its last read of the log succeeded. */
  connected: boolean;
  /**
   * How far behind PostgreSQL the source may be, in milliseconds: 0 while connected with no
   * change waiting; otherwise the time since the start of the last catch-up that succeeded
   * (everything committed before that moment is served).
   */
  lagMs: number;
  /** The change-log sequence the served catalogue includes everything up to. */
  lastAppliedSequence: number;
  /** Papers served. */
  papers: number;
  /** The last failure (listening or reading the log), until the source is connected and caught up again. */
  lastError: string | null;
}

/**
 * A source answering from the in-memory engine, fed by PostgreSQL: see {@link createFollowingSource}.
 */
export interface FollowingSource extends WritableSource {
  /** The schema followed. */
  readonly schema: string;
  /** Papers served. */
  readonly size: number;
  /** `pgf:<catalogue>:<sequence>`: the same on every server that applied the same changes. */
  version(): string;
  annotations(id: string, options?: SourceCallOptions): Promise<PaperAnnotations | null>;
  /** Upserts through PostgreSQL (see `write`). */
  upsert(papers: readonly Paper[]): Promise<WriteResult>;
  /** Deletes through PostgreSQL (see `write`). */
  remove(ids: readonly string[]): Promise<WriteResult>;
  /** Where the source stands: connection, lag, sequence, last error. */
  state(): FollowState;
  /** Resolves once everything committed before the call is served (after a read of the log that succeeds). */
  catchUp(): Promise<void>;
  /** Queries waiting for a query thread, and being answered (for metrics). */
  activity(): { queued: number; running: number };
  /** Stops following, and the query threads; the pool stays the caller's. */
  close(): Promise<void>;
}

/**
 * PostgreSQL as the system of record, the in-memory engine as the query path. Loads the
 * catalogue (and its tasks and methods) from paperlist's schema into a memory source, streamed
 * through a cursor in one REPEATABLE READ snapshot, remembering the change log's sequence of that
 * snapshot; then follows the change log (see `change-log.ts`): woken by NOTIFY on a connection of
 * its own and by a poll every `pollIntervalMs`, it reads the papers changed after the last
 * sequence it applied, in one snapshot, and applies them to the memory source as one write batch.
 * A replaced catalogue, a gap pruned from the log or a very large change reloads the whole
 * catalogue, built aside and swapped in. When the connection drops, the source keeps answering
 * from what it has (see {@link FollowingSource.state}) and catches up when it comes back.
 *
 * Writes (`write`, `upsert`, `remove`, and so the HTTP write API) go to PostgreSQL in one
 * transaction, with the PostgreSQL source's write path, and resolve once this source shows them.
 *
 * `db`: a `pg.Pool` (one of its connections is kept for LISTEN: give it `max` of 2 or more) or
 * PGlite (its `listen()`); another handle works, by polling alone. The schema must be migrated.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.PAPERLIST_DATABASE_URL });
 * const source = await createFollowingSource(pool, { threads: 2 });
 * console.log(source.state()); // { connected: true, lagMs: 0, lastAppliedSequence: 42, lastError: null }
 */
export async function createFollowingSource(db: Queryable, options: FollowingSourceOptions = {}): Promise<FollowingSource> {
  const resolved = resolveOptions(db, options);
  await assertMigrated(db, resolved.names.schema);
  const writer = await createPostgresSource({ db, schema: resolved.names.schema });
  const follower = new Follower(db, resolved, writer);
  try {
    await follower.start();
  } catch (error) {
    await follower.close();
    throw error;
  }
  return follower;
}

interface ResolvedOptions {
  names: SchemaNames;
  threads: number;
  budgetMs: number | undefined;
  maxQueue: number | undefined;
  pollIntervalMs: number;
  reloadAbove: number;
  fetchSize: number;
  writeVisibleWithinMs: number;
  onEvent: (event: FollowEvent) => void;
}

/** One catch-up waited for: resolved by the first successful step numbered `step` or more. */
interface Waiter {
  step: number;
  resolve(): void;
}

class Follower implements FollowingSource {
  readonly schema: string;
  private memory: IndexedMemorySource | undefined;
  private readonly listener: ChangeListener;
  private catalogue = '';
  private last = 0;
  /** Catch-up steps started (they run one at a time). */
  private started = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private waiters: Waiter[] = [];
  private poll: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the last successful step started: everything committed before it is served. */
  private syncedAt = Date.now();
  /** The first notification not yet covered by a successful step. */
  private pendingSince: number | undefined;
  private lastStepFailed = false;
  private lastError: string | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly options: ResolvedOptions,
    private readonly writer: PostgresSource,
  ) {
    this.schema = options.names.schema;
    let connections = 0;
    this.listener = new ChangeListener(db, changeLogNames(options.names).channel, {
      notified: () => {
        this.pendingSince ??= Date.now();
        this.kick();
      },
      connected: () => {
        options.onEvent({ type: 'connected', again: connections++ > 0 });
        // Changes committed while nobody listened: read the log from the last sequence applied.
        this.pendingSince ??= Date.now();
        this.kick();
      },
      lost: (error) => {
        this.lastError = error.message;
        options.onEvent({ type: 'disconnected', error });
      },
    });
  }

  /** Listens first (so no change after the snapshot goes unnoticed), loads, then polls. */
  async start(): Promise<void> {
    await this.listener.start();
    const began = Date.now();
    await this.load('start');
    this.syncedAt = began;
    // The load's snapshot holds every change notified before it began (the listener's first
    // `connected` among them): reporting lag until the first poll would be wrong, and racy.
    if (this.pendingSince !== undefined && this.pendingSince <= began) this.pendingSince = undefined;
    this.poll = setInterval(() => this.kick(), this.options.pollIntervalMs);
    this.poll.unref();
    this.kick();
  }

  get size(): number {
    return this.memory?.size ?? 0;
  }

  version(): string {
    return `pgf:${this.catalogue}:${this.last}`;
  }

  state(): FollowState {
    const listening = this.listener.listening || !this.listener.supported;
    const connected = listening && !this.lastStepFailed;
    const upToDate = connected && this.listener.listening && this.pendingSince === undefined;
    return {
      connected,
      lagMs: upToDate ? 0 : Math.max(0, Date.now() - this.syncedAt),
      lastAppliedSequence: this.last,
      papers: this.size,
      lastError: this.lastError,
    };
  }

  list(query: PaperQuery, options?: SourceCallOptions): Promise<PaperPage> {
    return this.loaded().list(query, options);
  }

  get(id: string, options?: SourceCallOptions): Promise<PaperRecord | null> {
    return this.loaded().get(id, options);
  }

  annotations(id: string, options?: SourceCallOptions): Promise<PaperAnnotations | null> {
    return this.loaded().annotations(id, options);
  }

  activity(): { queued: number; running: number } {
    return this.memory?.activity() ?? { queued: 0, running: 0 };
  }

  async write(changes: readonly PaperChange[]): Promise<WriteResult> {
    const result = await this.writer.write(changes);
    // Committed: shown here once a catch-up started after the commit has succeeded.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.catchUp(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.writeVisibleWithinMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return result;
  }

  upsert(papers: readonly Paper[]): Promise<WriteResult> {
    return this.write(upserts(papers));
  }

  remove(ids: readonly string[]): Promise<WriteResult> {
    return this.write(deletes(ids));
  }

  catchUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    // The step running now may have read the log before the caller's commit: the next one counts.
    const step = this.started + 1;
    return new Promise<void>((resolve) => {
      this.waiters.push({ step, resolve });
      this.kick();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.poll !== undefined) clearInterval(this.poll);
    await this.listener.close();
    await this.running?.catch(() => {});
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    await this.memory?.close();
    await this.writer.close();
  }

  private loaded(): IndexedMemorySource {
    if (this.memory === undefined) throw new Error('paperlist: the following source is not loaded');
    return this.memory;
  }

  /** Runs catch-up steps until none is asked for; one at a time. */
  private kick(): void {
    if (this.closed || this.memory === undefined) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.steps().finally(() => (this.running = undefined));
  }

  private async steps(): Promise<void> {
    do {
      this.again = false;
      const step = ++this.started;
      const began = Date.now();
      try {
        await this.step();
      } catch (error) {
        // The next poll (or notification) tries again; waiters wait for a step that succeeds.
        const failure = error instanceof Error ? error : new Error(String(error));
        this.lastStepFailed = true;
        this.lastError = failure.message;
        if (!this.closed) this.options.onEvent({ type: 'catch-up-failed', error: failure });
        return;
      }
      this.syncedAt = began;
      this.lastStepFailed = false;
      if (this.pendingSince !== undefined && this.pendingSince <= began) this.pendingSince = undefined;
      if (this.listener.listening || !this.listener.supported) this.lastError = null;
      const ready = this.waiters.filter((waiter) => waiter.step <= step);
      this.waiters = this.waiters.filter((waiter) => waiter.step > step);
      for (const waiter of ready) waiter.resolve();
    } while (this.again && !this.closed);
  }

  /** One catch-up (one statement): nothing new, the changes after the last sequence applied, or a reload. */
  private async step(): Promise<void> {
    const { names, reloadAbove } = this.options;
    if (this.closed) return;
    const range = await readRange(this.db, names, this.last, this.catalogue, reloadAbove);
    if (this.closed || range.kind === 'none') return;
    if (range.kind === 'reload') {
      await this.load(range.why);
      return;
    }
    if (range.changes.length > 0) await this.loaded().write(range.changes);
    this.last = range.upTo;
  }

  /** Loads the whole catalogue in one snapshot (the first time, or to replace the one served). */
  private async load(reason: string): Promise<void> {
    const { names, fetchSize } = this.options;
    this.options.onEvent({ type: 'loading', reason });
    const started = performance.now();
    const head = await withSnapshot(this.db, async (tx): Promise<LogHead> => {
      const head = await readHead(tx, names);
      const annotations = await readAnnotations(tx, names);
      const papers = this.untilClosed(streamPapers(tx, names, fetchSize));
      if (this.memory === undefined) {
        this.memory = await createMemorySourceFromStream(papers, {
          threads: this.options.threads,
          annotations,
          ...(this.options.budgetMs === undefined ? {} : { budgetMs: this.options.budgetMs }),
          ...(this.options.maxQueue === undefined ? {} : { maxQueue: this.options.maxQueue }),
        });
      } else {
        await this.memory.replaceFrom(papers, { annotations });
      }
      return head;
    });
    this.catalogue = head.catalogue;
    this.last = head.top;
    this.options.onEvent({ type: 'loaded', papers: this.size, sequence: head.top, ms: performance.now() - started, reason });
  }

  /** The papers of a load, stopped when the source is closed meanwhile (the catalogue being built is dropped). */
  private async *untilClosed(papers: AsyncGenerator<Paper>): AsyncGenerator<Paper> {
    for await (const paper of papers) {
      if (this.closed) throw new Error('paperlist: the following source was closed while loading');
      yield paper;
    }
  }
}

function resolveOptions(db: Queryable, options: FollowingSourceOptions): ResolvedOptions {
  const fail = (code: string, message: string): never => {
    throw new PaperlistOptionsError(code, `paperlist: ${message}`);
  };
  if (typeof (db as Queryable | null)?.query !== 'function') fail('invalid-db', 'createFollowingSource needs a pg.Pool or a PGlite instance');
  if (typeof options !== 'object' || options === null) fail('invalid-options', 'the options of createFollowingSource must be an object');
  const count = (name: string, value: unknown, fallback: number, minimum: number): number => {
    if (value === undefined) return fallback;
    if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum)) {
      fail(`invalid-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, `"${name}" must be an integer >= ${minimum}, got ${String(value)}`);
    }
    return value as number;
  };
  return {
    names: schemaNames(options.schema ?? DEFAULT_SCHEMA),
    threads: count('threads', options.threads, 0, 0),
    budgetMs: options.budgetMs,
    maxQueue: options.maxQueue,
    pollIntervalMs: count('pollIntervalMs', options.pollIntervalMs, 1000, 1),
    reloadAbove: count('reloadAbove', options.reloadAbove, 50_000, 0),
    fetchSize: count('fetchSize', options.fetchSize, 5000, 1),
    writeVisibleWithinMs: count('writeVisibleWithinMs', options.writeVisibleWithinMs, 10_000, 0),
    onEvent: options.onEvent ?? (() => {}),
  };
}
