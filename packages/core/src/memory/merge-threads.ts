import { Worker } from 'node:worker_threads';
import type { IndexData } from '../engine/builder.js';
import { indexFromParts, indexParts, type IndexParts } from '../engine/index-parts.js';
import type { Segment } from '../segments/segment.js';
import type { BuilderData, ToBuilder } from '../threads/build-messages.js';
import { BuilderInbox } from '../threads/builder-inbox.js';
import { MAX_MERGES_AT_ONCE } from './segment-merger.js';
import { buildWorkerScript } from '../threads/worker-script.js';
import { WARM_UP_PAPERS } from '../threads/builder-warm-up.js';

interface MergeThread {
  worker: Worker;
  inbox: BuilderInbox;
}

/** A thread started ahead of the first merge, warming up (see {@link MergeThreads.start}). */
interface WarmingThread {
  thread: MergeThread;
  /** Once the warm-up was sent: resolves when it is over (true) or failed (false). */
  warmed: Promise<boolean> | null;
  /** Set to stop the warm-up after the build under way. */
  stop: Int32Array;
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
  private warming: WarmingThread | null = null;
  private closed = false;

  /**
   * @param keep idle threads kept for the next merges (more are stopped when done)
   * @param gate a `MergeGate`'s buffer: the merges pause while a write holds it
   */
  constructor(
    private readonly keep = MAX_MERGES_AT_ONCE,
    private readonly gate?: SharedArrayBuffer,
  ) {}

  /**
   * Starts a thread now, for the first merge, and has it build `rounds` small indexes of papers
   * of `from` (see `builder-warm-up.ts`) once `after` resolves. Without it the first merge of a
   * large catalogue started a thread and ran the builder's unoptimized code while the writes that
   * called for it went on: at 1M papers, the batch of 1,000 upserts written beside it was the
   * slowest of the write benchmark's six (110–175 ms).
   */
  start(from: IndexParts, rounds: number, after: Promise<void>): void {
    if (this.warming !== null || this.closed) return;
    const thread = this.spawn();
    thread.worker.unref();
    const warming: WarmingThread = { thread, warmed: null, stop: new Int32Array(new SharedArrayBuffer(4)) };
    void after.then(() => {
      // A merge that came first took the thread as it was.
      if (Atomics.load(warming.stop, 0) === 1) return;
      thread.worker.postMessage({ type: 'warm-up', warmUp: { from, rounds, papers: WARM_UP_PAPERS, stop: warming.stop, merges: true } } satisfies ToBuilder);
      warming.warmed = thread.inbox.expect('warmed').then(
        () => true,
        () => false,
      );
    });
    this.warming = warming;
  }

  /** One index of the live papers of `segments`, built on a thread that reads them from their shared memory itself. */
  async merge(segments: readonly Segment[]): Promise<IndexData> {
    const thread = await this.take();
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
    return this.idle.length + this.busy.size + (this.warming === null ? 0 : 1);
  }

  /** Stops the idle threads (and one warming up); merges under way finish, and their threads stop then. */
  async close(): Promise<void> {
    this.closed = true;
    const warming = this.warming;
    this.warming = null;
    await Promise.all([...this.idle.splice(0), ...(warming === null ? [] : [warming.thread])].map((thread) => thread.worker.terminate()));
  }

  private async take(): Promise<MergeThread> {
    const warming = this.warming;
    if (warming !== null) {
      // The first merge stops the warm-up after its build under way, and takes the thread.
      this.warming = null;
      Atomics.store(warming.stop, 0, 1);
      warming.thread.worker.ref();
      const warmed = warming.warmed === null ? true : await warming.warmed;
      if (warmed && !warming.thread.inbox.unread) return warming.thread;
      void warming.thread.worker.terminate();
    }
    for (;;) {
      const kept = this.idle.pop();
      if (kept === undefined) break;
      // A kept thread that died while idle has its exit waiting unread: it is dropped, not used.
      if (!kept.inbox.unread) return kept;
      void kept.worker.terminate();
    }
    return this.spawn();
  }

  private spawn(): MergeThread {
    const worker = new Worker(buildWorkerScript(), { name: 'paperlist-merge', workerData: { role: 'merge', ...(this.gate === undefined ? {} : { gate: this.gate }) } satisfies BuilderData });
    return { worker, inbox: new BuilderInbox(worker) };
  }
}
