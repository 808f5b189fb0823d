import { Worker } from 'node:worker_threads';
import type { IndexData } from '../engine/builder.js';
import { indexFromParts, indexParts } from '../engine/index-parts.js';
import type { Segment } from '../segments/segment.js';
import type { BuilderData, ToBuilder } from '../threads/build-messages.js';
import { BuilderInbox } from '../threads/builder-inbox.js';
import { MAX_MERGES_AT_ONCE } from './segment-merger.js';
import { buildWorkerScript } from '../threads/worker-script.js';

interface MergeThread {
  worker: Worker;
  inbox: BuilderInbox;
}

/**
 * The threads that build merged indexes of segments (background merges, and `save`), kept
 * between merges. During a stream of writes the newest deltas are merged every second or so:
 * a thread started per merge loaded and compiled the engine's code each time, and ran the
 * builder unoptimized (its first builds are three to five times slower than later ones), all
 * of it CPU taken from the queries. A thread that is done goes back to the idle ones, up to
 * `keep` of them; merges that overlap (a full merge and one of the newest deltas: the merger runs
 * at most `MAX_MERGES_AT_ONCE`) get a thread each. Idle threads never keep the process alive.
 */
export class MergeThreads {
  private readonly idle: MergeThread[] = [];
  private readonly busy = new Set<MergeThread>();
  private closed = false;

  /**
   * @param keep idle threads kept for the next merges (more are stopped when done)
   * @param gate a `MergeGate`'s buffer: the merges pause while a write holds it
   */
  constructor(
    private readonly keep = MAX_MERGES_AT_ONCE,
    private readonly gate?: SharedArrayBuffer,
  ) {}

  /** One index of the live papers of `segments`, built on a thread that reads them from their shared memory itself. */
  async merge(segments: readonly Segment[]): Promise<IndexData> {
    const thread = this.take();
    this.busy.add(thread);
    thread.worker.ref(); // the caller awaits this merge
    let done = false;
    try {
      thread.worker.postMessage({ type: 'segments', segments: segments.map(({ index, live }) => ({ parts: indexParts(index, 'keep'), live })) } satisfies ToBuilder);
      await thread.inbox.expect('added');
      thread.worker.postMessage({ type: 'finish' } satisfies ToBuilder);
      const built = await thread.inbox.expect('built');
      done = true;
      return indexFromParts(built.parts);
    } finally {
      this.busy.delete(thread);
      // A thread that failed is not trusted with the next merge; after `close()` none is kept.
      if (done && !this.closed && this.idle.length < this.keep) {
        thread.worker.unref();
        this.idle.push(thread);
      } else {
        void thread.worker.terminate();
      }
    }
  }

  /** Threads alive now (idle and merging): for tests. */
  get size(): number {
    return this.idle.length + this.busy.size;
  }

  /** Stops the idle threads; merges under way finish, and their threads stop then. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((thread) => thread.worker.terminate()));
  }

  private take(): MergeThread {
    for (;;) {
      const kept = this.idle.pop();
      if (kept === undefined) break;
      // A kept thread that died while idle has its exit waiting unread: it is dropped, not used.
      if (!kept.inbox.unread) return kept;
      void kept.worker.terminate();
    }
    const worker = new Worker(buildWorkerScript(), { name: 'paperlist-merge', workerData: { role: 'merge', ...(this.gate === undefined ? {} : { gate: this.gate }) } satisfies BuilderData });
    return { worker, inbox: new BuilderInbox(worker) };
  }
}
