import { Worker } from 'node:worker_threads';
import { indexParts } from '../engine/index-parts.js';
import type { Segment } from '../segments/segment.js';
import type { QueryRunner, RunnerAnswer } from '../memory/query-runner.js';
import { QueryBudgetError, SourceOverloadedError } from '../source-errors.js';
import type { PaperQuery } from '../source.js';
import type { SegmentMessage, ThreadData, ToPool, ToThread } from './pool-messages.js';
import { engineWorkerScript } from './worker-script.js';

/** How many threads answer queries, how long each query may work, how many may wait. */
export interface EnginePoolOptions {
  threads: number;
  budgetMs: number;
  maxQueue: number;
}

interface Task {
  id: number;
  query: PaperQuery;
  signal: AbortSignal | undefined;
  resolve: (answer: RunnerAnswer) => void;
  reject: (error: unknown) => void;
  onAbort: () => void;
}

interface QueryThread {
  worker: Worker;
  slot: number;
  task: Task | null;
}

/** A thread that dies this many times within a minute is not restarted again. */
const MAX_RESTARTS = 5;

/**
 * Answers queries on worker threads that share one index in shared memory, so the thread
 * that accepts connections never runs a query and one process uses every core with the
 * memory of one index. A query waits in a bounded queue for a free thread (a full queue is
 * refused at once with `SourceOverloadedError`), works within its budget (`QueryBudgetError`
 * past it), and is stopped when its request's signal aborts.
 */
export class EnginePool implements QueryRunner {
  private segments: readonly Segment[];
  /** Segments whose index every thread holds (a new one gets them all in its `workerData`). */
  private known = new Set<number>();
  private readonly threads: QueryThread[] = [];
  private readonly queue: Task[] = [];
  private readonly cancel: Int32Array;
  private nextId = 1;
  private closed = false;
  private readonly restarts: number[] = [];

  constructor(
    segments: readonly Segment[],
    private readonly options: EnginePoolOptions,
  ) {
    this.segments = segments;
    this.known = new Set(segments.map((segment) => segment.id));
    this.cancel = new Int32Array(new SharedArrayBuffer(4 * options.threads));
    for (let slot = 0; slot < options.threads; slot++) this.threads.push(this.start(slot));
  }

  /** Queries waiting for a thread. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queries being answered. */
  get running(): number {
    return this.threads.filter((t) => t.task !== null).length;
  }

  run(query: PaperQuery, signal?: AbortSignal): Promise<RunnerAnswer> {
    if (this.closed) return Promise.reject(new Error('paperlist: the memory source is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const idle = this.threads.find((t) => t.task === null);
    if (idle === undefined && this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new SourceOverloadedError(this.queue.length));
    }
    return new Promise<RunnerAnswer>((resolve, reject) => {
      const task: Task = { id: this.nextId++, query, signal, resolve, reject, onAbort: () => this.abort(task) };
      signal?.addEventListener('abort', task.onAbort, { once: true });
      if (idle !== undefined) this.dispatch(idle, task);
      else this.queue.push(task);
    });
  }

  /**
   * Serves `segments` from now on. Each thread gets them in one message, before any query
   * asked later (a thread reads its messages in order), so a query sees one generation whole;
   * an index crosses once (its parts are shared memory), then its id and live bitset do.
   */
  load(segments: readonly Segment[]): void {
    this.segments = segments;
    const message: ToThread = { type: 'load', segments: segments.map((segment) => segmentMessage(segment, this.known.has(segment.id))) };
    this.known = new Set(segments.map((segment) => segment.id));
    for (const thread of this.threads) thread.worker.postMessage(message);
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = new Error('paperlist: the memory source is closed');
    for (const task of this.queue.splice(0)) this.settle(task, () => task.reject(closing));
    await Promise.all(
      this.threads.map(async (thread) => {
        const task = thread.task;
        thread.task = null;
        await thread.worker.terminate();
        if (task !== null) this.settle(task, () => task.reject(closing));
      }),
    );
  }

  private start(slot: number): QueryThread {
    const data: ThreadData = { segments: this.segments.map((segment) => segmentMessage(segment, false)), cancel: this.cancel, slot };
    const worker = new Worker(engineWorkerScript(), { workerData: data, name: `paperlist-query-${slot}` });
    const thread: QueryThread = { worker, slot, task: null };
    worker.on('message', (reply: ToPool) => this.answered(thread, reply));
    worker.on('error', (error) => this.died(thread, error));
    worker.on('exit', (code) => {
      if (!this.closed) this.died(thread, new Error(`paperlist: a query thread exited with code ${code}`));
    });
    // An idle pool never keeps the process alive (after the listeners: adding one refs the worker again).
    worker.unref();
    return thread;
  }

  private dispatch(thread: QueryThread, task: Task): void {
    thread.task = task;
    Atomics.store(this.cancel, thread.slot, 0);
    thread.worker.ref(); // the caller awaits this answer
    const message: ToThread = { type: 'list', id: task.id, query: task.query, budgetMs: this.options.budgetMs, token: task.id };
    thread.worker.postMessage(message);
  }

  private answered(thread: QueryThread, reply: ToPool): void {
    const task = thread.task;
    if (task === null || task.id !== reply.id) return; // a task already settled (aborted, closed)
    this.release(thread);
    if ('count' in reply) {
      const { count, page, facets } = reply;
      const release = this.recycler(thread, page.json.buffer as ArrayBuffer);
      this.settle(task, () => task.resolve(facets === undefined ? { count, page, release } : { count, page, facets, release }));
    } else if ('interrupted' in reply) {
      const error = reply.interrupted === 'budget' ? new QueryBudgetError(this.options.budgetMs) : task.signal?.reason;
      this.settle(task, () => task.reject(error));
    } else {
      this.settle(task, () => task.reject(new Error(`paperlist: a query thread failed: ${reply.error}`)));
    }
  }

  /**
   * Hands `buffer` back to the thread that gathered a page in it, at most once; nothing when
   * that thread has ended since (the buffer is then left to the GC). Posting detaches the buffer
   * here at once, which keeps this thread's external memory, and so its full collections, down.
   */
  private recycler(thread: QueryThread, buffer: ArrayBuffer): () => void {
    let done = false;
    return () => {
      if (done || this.closed || !this.threads.includes(thread) || buffer.byteLength === 0) return;
      done = true;
      const message: ToThread = { type: 'recycle', buffer };
      thread.worker.postMessage(message, [buffer]);
    };
  }

  /** The thread is free: it takes the next waiting query, if any. */
  private release(thread: QueryThread): void {
    thread.task = null;
    const next = this.queue.shift();
    if (next !== undefined) this.dispatch(thread, next);
    else thread.worker.unref();
  }

  private abort(task: Task): void {
    const waiting = this.queue.indexOf(task);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      this.settle(task, () => task.reject(task.signal?.reason));
      return;
    }
    const thread = this.threads.find((t) => t.task === task);
    // The thread stops at its next check and answers `interrupted`; the task settles then.
    if (thread !== undefined) Atomics.store(this.cancel, thread.slot, task.id);
  }

  private settle(task: Task, settle: () => void): void {
    task.signal?.removeEventListener('abort', task.onAbort);
    settle();
  }

  /** A thread crashed: its query fails, and a new thread takes its place (unless they keep dying). */
  private died(thread: QueryThread, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index < 0 || this.closed) return;
    const task = thread.task;
    thread.task = null;
    if (task !== null) this.settle(task, () => task.reject(error));
    void thread.worker.terminate();
    const now = Date.now();
    this.restarts.push(now);
    while (this.restarts.length > 0 && this.restarts[0]! < now - 60_000) this.restarts.shift();
    if (this.restarts.length > MAX_RESTARTS) {
      this.threads.splice(index, 1);
      if (this.threads.length === 0) {
        for (const waiting of this.queue.splice(0)) this.settle(waiting, () => waiting.reject(error));
      }
      return;
    }
    const fresh = this.start(thread.slot);
    this.threads[index] = fresh;
    const next = this.queue.shift();
    if (next !== undefined) this.dispatch(fresh, next);
  }
}

function segmentMessage(segment: Segment, known: boolean): SegmentMessage {
  return known ? { id: segment.id, live: segment.live } : { id: segment.id, parts: indexParts(segment.index, 'keep'), live: segment.live };
}
