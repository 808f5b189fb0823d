import { Worker } from 'node:worker_threads';
import type { IndexData } from '../engine/builder.js';
import { indexFromParts, indexParts, type IndexParts } from '../engine/index-parts.js';
import type { Paper } from '../paper.js';
import type { AnnotationMap } from '../annotations/annotations.js';
import type { BuilderData, ToBuilder } from '../threads/build-messages.js';
import { BuilderInbox } from '../threads/builder-inbox.js';
import { buildWorkerScript } from '../threads/worker-script.js';
import { TokenizingThread } from './parallel-build.js';
import { WARM_UP_PAPERS, warmUpRounds, type BuilderWarmUp } from '../threads/builder-warm-up.js';

/** Papers sent to the building thread in one message. */
const BATCH = 256;
/** Batches sent but not yet added, before the reading waits: bounds the papers held in messages. */
const MAX_IN_FLIGHT = 8;

/**
 * Builds an index on a worker thread from papers read here. The calling thread keeps only the
 * reading (and parsing, by whoever yields the papers); tokenizing, serializing and laying out
 * the postings (13.8 s in one piece at 498k papers, which used to hold every request up during
 * a reload) run on the building thread, at the same time as the reading. The index comes back
 * in shared memory, not copied. With `buildThreads` 2, a second thread tokenizes the papers
 * meanwhile (see `TokenizingThread`).
 */
export async function buildOnThread(papers: Iterable<Paper> | AsyncIterable<Paper>, annotations?: AnnotationMap, buildThreads: 1 | 2 = 1): Promise<IndexData> {
  const worker = new Worker(buildWorkerScript(), { name: 'paperlist-build', workerData: { role: 'build' } satisfies BuilderData });
  const inbox = new BuilderInbox(worker);
  const tokenizing = buildThreads === 2 ? new TokenizingThread(worker) : null;
  try {
    let batch: Paper[] = [];
    let inFlight = 0;
    // Annotations are looked up when a batch is sent, after its papers were read: a map that the
    // reader fills as it goes (`readCatalog`'s `annotations`) already holds theirs.
    const papersMessage = (papers: Paper[]): ToBuilder => {
      if (annotations === undefined || annotations.size === 0) return { type: 'papers', papers };
      const notes = papers.map((paper) => annotations.get(paper.id) ?? null);
      return notes.some((note) => note !== null) ? { type: 'papers', papers, annotations: notes } : { type: 'papers', papers };
    };
    const send = async (message: ToBuilder) => {
      worker.postMessage(message);
      if (message.type === 'papers') tokenizing?.papers(message.papers);
      else if (message.type === 'finish') tokenizing?.finish();
      if (message.type === 'papers') inFlight++;
      while (inFlight > (message.type === 'finish' ? 0 : MAX_IN_FLIGHT)) {
        await inbox.expect('added');
        inFlight--;
      }
    };
    for await (const paper of papers) {
      batch.push(paper);
      if (batch.length >= BATCH) {
        await send(papersMessage(batch));
        batch = [];
      }
    }
    if (batch.length > 0) await send(papersMessage(batch));
    await send({ type: 'finish' });
    const built = await inbox.expect('built');
    return indexFromParts(built.parts);
  } finally {
    await Promise.all([worker.terminate(), tokenizing?.close()]);
  }
}

/**
 * A building thread kept for the small indexes of write batches (deltas), one after another:
 * starting a thread costs more than building a delta, and a delta built here would hold the
 * thread that serves requests for tens of milliseconds per thousand papers.
 */
export class DeltaBuilder {
  private worker: Worker | null = null;
  private inbox: BuilderInbox | null = null;
  /** Builds wait for the one before (the writer applies one batch at a time anyway). */
  private last: Promise<unknown> = Promise.resolve();
  /** The warm-up builds of a thread just started (see {@link start}); the first batch stops them, and waits for the one under way. */
  private warm: Promise<void> = Promise.resolve();
  private readonly stopWarmUp = new Int32Array(new SharedArrayBuffer(4));

  /** The index of `papers`, with their tasks and methods by id. */
  build(papers: readonly Paper[], annotations: AnnotationMap): Promise<IndexData> {
    const next = this.last.then(() => this.run(papers, annotations));
    this.last = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /**
   * Starts the thread now (a source that serves from query threads calls it at creation):
   * starting it and compiling the building code cost several hundred milliseconds, which the
   * first write would otherwise wait for. The thread then builds a few indexes of papers taken
   * from `from` (the base's parts, read on the thread from shared memory) and made up, so that
   * the builder's code is optimized before the first batch arrives (see `builder-warm-up.ts`);
   * it never keeps the process alive. The warm-up waits for `after` (another delta thread's:
   * two warming up at once took both cores from the queries of a source just opened).
   * @returns when the warm-up is over (or failed)
   */
  start(from: IndexParts | null = null, after: Promise<void> = Promise.resolve()): Promise<void> {
    if (this.worker !== null) return this.warm;
    const worker = new Worker(buildWorkerScript(), { name: 'paperlist-delta', workerData: { role: 'delta' } satisfies BuilderData });
    const inbox = new BuilderInbox(worker);
    this.worker = worker;
    this.inbox = inbox;
    worker.unref();
    const warmUp: BuilderWarmUp = { from, rounds: warmUpRounds(from?.n ?? 0), papers: WARM_UP_PAPERS, stop: this.stopWarmUp };
    const warmed = after.then(() => {
      worker.postMessage({ type: 'warm-up', warmUp } satisfies ToBuilder);
      return inbox.expect('warmed');
    });
    // A warm-up that failed (the thread could not start): the next build starts another thread.
    this.warm = warmed.then(
      () => undefined,
      () => {
        if (this.worker === worker) {
          this.worker = null;
          this.inbox = null;
          void worker.terminate();
        }
      },
    );
    return this.warm;
  }

  private async run(papers: readonly Paper[], annotations: AnnotationMap): Promise<IndexData> {
    // Each start's warm-up is awaited (its answers must not be taken for the batch's), with the
    // thread referenced: the caller waits for it, so the process must not exit meanwhile.
    for (let attempt = 0; this.worker === null || attempt === 0; attempt++) {
      if (attempt > 1) throw new Error('paperlist: the thread that builds the writes\' delta indexes could not start');
      if (this.worker === null) this.start();
      Atomics.store(this.stopWarmUp, 0, 1);
      const starting = this.worker!;
      starting.ref();
      await this.warm;
      if (this.worker !== starting) starting.unref();
    }
    const worker = this.worker!;
    const inbox = this.inbox!;
    try {
      const notes = annotations.size === 0 ? undefined : papers.map((paper) => annotations.get(paper.id) ?? null);
      // Both messages at once: waiting for `added` before sending `finish` cost a turn of this thread's event loop, busy with requests.
      worker.postMessage({ type: 'papers', papers: [...papers], ...(notes === undefined ? {} : { annotations: notes }) } satisfies ToBuilder);
      worker.postMessage({ type: 'finish' } satisfies ToBuilder);
      await inbox.expect('added');
      const built = await inbox.expect('built');
      return indexFromParts(built.parts);
    } catch (error) {
      // A thread that failed is not trusted with the next batch.
      this.worker = null;
      this.inbox = null;
      void worker.terminate();
      throw error;
    } finally {
      worker.unref();
    }
  }

  /** Stops the thread (a later build starts another). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.inbox = null;
    if (worker !== null) await worker.terminate();
  }
}
