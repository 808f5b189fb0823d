import type { IndexParts } from '../engine/index-parts.js';
import type { Paper } from '../paper.js';
import type { PaperAnnotations } from '../annotations/annotations.js';
import type { LiveDocs } from '../segments/segment.js';
import type { MessagePort } from 'node:worker_threads';
import type { ThreadRole } from './thread-priority.js';
import type { BuilderWarmUp } from './builder-warm-up.js';

/** A building thread's `workerData`: what it builds, which sets its priority. */
export interface BuilderData {
  role: Exclude<ThreadRole, 'query'>;
  /** A merge thread's gate (see `merge-gate.ts`): it pauses at checkpoints while a write holds it. */
  gate?: SharedArrayBuffer;
}

/**
 * From the building thread's owner: papers to add, in order (with the tasks and methods of each,
 * `null` for none, when any of the batch has some), then the order to finish.
 */
export type ToBuilder =
  | { type: 'papers'; papers: Paper[]; annotations?: (PaperAnnotations | null)[] }
  /** The live papers of indexes in shared memory (a merge of segments: read there, not here). */
  | { type: 'segments'; segments: { parts: IndexParts; live: LiveDocs | null }[] }
  /**
   * Before the first papers of a build on two threads: the papers are tokenized by another
   * thread, which sends what this one needs of that through `port` (see `tokenize-messages.ts`).
   */
  | { type: 'tokens-from'; port: MessagePort; signal: SharedArrayBuffer }
  | { type: 'finish' }
  /** A delta or merge thread just started: builds to make (and drop) before the first write's or merge's (see `builder-warm-up.ts`). */
  | { type: 'warm-up'; warmUp: BuilderWarmUp };

/** From the building thread: a batch was added, the index is built, the warm-up is done, or the build failed. */
export type FromBuilder =
  | { type: 'added' }
  | { type: 'warmed' }
  | { type: 'built'; parts: IndexParts }
  | { type: 'failed'; name: string; message: string; stack?: string };
