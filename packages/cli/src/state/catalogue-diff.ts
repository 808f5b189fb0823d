import { createHash } from 'node:crypto';
import {
  positionOf,
  serializePaper,
  toJsonBytes,
  toPaper,
  type AnnotationMap,
  type OrderKey,
  type Paper,
  normalizeAnnotations,
  type PaperAnnotations,
  type PaperChange,
  type PaperQuery,
  type PaperSource,
} from '@paperlist/core';

/** Papers asked of the source at a time while its fingerprints are read. */
const WALK_PAGE = 2000;

const BY_ID: OrderKey[] = [{ field: 'id', descending: false }];

/** Hashes of a paper's stored JSON and of its tasks and methods: equal hashes, equal papers. */
export interface PaperFingerprint {
  json: string;
  annotations: string;
}

/**
 * The fingerprint of every paper `source` serves, by id: a cursor walk in id order, so memory
 * holds one page of papers and two hashes per paper (about 150 bytes), never the catalogue.
 */
export async function catalogueFingerprints(source: PaperSource, signal?: AbortSignal): Promise<Map<string, PaperFingerprint>> {
  const fingerprints = new Map<string, PaperFingerprint>();
  const query: PaperQuery = { terms: [], filters: {}, ordering: { kind: 'fields', keys: BY_ID }, offset: 0, limit: WALK_PAGE };
  for (;;) {
    signal?.throwIfAborted();
    const { results } = await source.list(query, signal === undefined ? {} : { signal });
    for (const record of results) {
      const annotations = source.annotations === undefined ? null : await source.annotations(record.id);
      fingerprints.set(record.id, { json: hash(toJsonBytes(record)), annotations: annotationsHash(annotations ?? undefined) });
    }
    if (results.length < WALK_PAGE) return fingerprints;
    query.after = positionOf(toPaper(results[results.length - 1]!), BY_ID);
  }
}

/** What turns one catalogue into another, by id. */
export interface CatalogueDiff {
  /** Upserts of new and changed papers, then deletes of papers gone, as one write batch. */
  changes: PaperChange[];
  /**
   * Whether some paper comes with other tasks or methods than it has now: a write keeps a
   * paper's tasks and methods (a new paper has none), so only a rebuild applies that difference.
   */
  annotationsChanged: boolean;
}

/**
 * The difference between the catalogue whose fingerprints are `current` and the papers of
 * `next`, whose tasks and methods the reader puts in `annotations` as it goes. `current` is
 * emptied on the way. A duplicate id in `next` throws, as a build would.
 */
export async function diffCatalogue(
  next: AsyncIterable<Paper>,
  annotations: AnnotationMap,
  current: Map<string, PaperFingerprint>,
): Promise<CatalogueDiff> {
  const seen = new Set<string>();
  const changes: PaperChange[] = [];
  const kept: { id: string; annotations: string }[] = [];
  for await (const paper of next) {
    if (seen.has(paper.id)) throw new Error(`paperlist: duplicate paper id ${JSON.stringify(paper.id)}`);
    seen.add(paper.id);
    const was = current.get(paper.id);
    current.delete(paper.id);
    if (was === undefined || was.json !== hash(new TextEncoder().encode(serializePaper(paper)))) changes.push({ op: 'upsert', paper });
    // Compared once the stream ends: a reader may fill a paper's annotations after yielding it.
    kept.push({ id: paper.id, annotations: was?.annotations ?? NONE });
  }
  const annotationsChanged = kept.some((paper) => annotationsHash(annotations.get(paper.id)) !== paper.annotations);
  for (const id of current.keys()) changes.push({ op: 'delete', id });
  return { changes, annotationsChanged };
}

/** Drops the changes of ids in `keep` (ids whose value the write journal decides, whatever the files say). */
export function withoutIds(changes: readonly PaperChange[], keep: ReadonlyMap<string, unknown>): PaperChange[] {
  return changes.filter((change) => !keep.has(change.op === 'upsert' ? change.paper.id : change.id));
}

const NONE = '';

/** The hash of a paper's tasks and methods as the memory source keeps them; {@link NONE} for none. */
function annotationsHash(annotations: PaperAnnotations | undefined): string {
  if (annotations === undefined) return NONE;
  const kept = normalizeAnnotations(annotations);
  if (kept.tasks.length === 0 && kept.methods.length === 0) return NONE;
  // Fields in a fixed order: equal methods hash equal however their objects were built.
  const methods = kept.methods.map((m) => [m.name, m.full_name, m.description, m.introduced_year, m.source_url, m.source_title, m.code_snippet_url]);
  return hash(new TextEncoder().encode(JSON.stringify([kept.tasks, methods])));
}

function hash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64');
}
