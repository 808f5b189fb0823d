import { Worker } from 'node:worker_threads';
import type { RawPostingList, TermPostings } from '../posting-merge.js';
import type { MergeReply, MergeRequest } from './merge-messages.js';
import { mergeWorkerScript } from './merge-worker-script.js';

interface Pending {
  resolve: (postings: TermPostings) => void;
  reject: (error: Error) => void;
}

interface MergeThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Threads that decode and merge posting lists (see posting-merge.ts's `MergePostings`), so the
 * event loop only does I/O. Threads start on first use; a job goes to the thread with the
 * fewest in flight. A thread that dies rejects its jobs and is replaced on the next one, so no
 * request waits on a dead thread. {@link MergePool.close} ends them.
 */
export class MergePool {
  private readonly threads: (MergeThread | null)[];
  private nextId = 0;
  private closed = false;

  /** `size` threads at most (at least 1). */
  constructor(size: number) {
    this.threads = Array.from({ length: Math.max(1, size) }, () => null);
  }

  /** Decodes and merges `lists` on a thread: the same answer as `mergeInThread`. */
  readonly merge = (lists: RawPostingList[], prefix: string | null): Promise<TermPostings> => {
    if (this.closed) return Promise.reject(new Error('paperlist: the merge threads are closed'));
    let total = 0;
    for (const list of lists) total += list.data.byteLength;
    const data = new ArrayBuffer(total);
    const bytes = new Uint8Array(data);
    const offsets = new Float64Array(lists.length + 1);
    const dfs = new Int32Array(lists.length);
    let at = 0;
    for (let i = 0; i < lists.length; i++) {
      bytes.set(lists[i]!.data, at);
      at += lists[i]!.data.byteLength;
      offsets[i + 1] = at;
      dfs[i] = lists[i]!.df;
    }
    const thread = this.pick();
    const id = this.nextId++;
    const request: MergeRequest = { id, words: lists.map((list) => list.word), dfs, offsets, data, prefix };
    return new Promise<TermPostings>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // An idle thread must not keep the process alive; one with work must.
      if (thread.pending.size === 1) thread.worker.ref();
      thread.worker.postMessage(request, [data]);
    });
  };

  /** The running threads' workers (tests end one to see its jobs rejected). */
  workers(): Worker[] {
    return this.threads.flatMap((thread) => (thread === null ? [] : [thread.worker]));
  }

  /** Ends every thread; jobs in flight are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const running = this.threads.filter((thread): thread is MergeThread => thread !== null);
    this.threads.fill(null);
    for (const thread of running) this.fail(thread, new Error('paperlist: the merge threads are closed'));
    await Promise.all(running.map((thread) => thread.worker.terminate()));
  }

  /** The thread with the fewest jobs in flight, started (or restarted) when missing. */
  private pick(): MergeThread {
    let best = -1;
    for (let i = 0; i < this.threads.length; i++) {
      const thread = this.threads[i];
      if (thread === null) {
        best = i;
        break;
      }
      if (best === -1 || thread!.pending.size < this.threads[best]!.pending.size) best = i;
    }
    return (this.threads[best] ??= this.start(best));
  }

  private start(slot: number): MergeThread {
    const worker = new Worker(mergeWorkerScript());
    const thread: MergeThread = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (reply: MergeReply) => {
      const pending = thread.pending.get(reply.id);
      if (pending === undefined) return;
      thread.pending.delete(reply.id);
      if (thread.pending.size === 0) worker.unref();
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.postings);
    });
    const died = (error: Error) => {
      // Forget the thread first: the next job starts a new one.
      if (this.threads[slot] === thread) this.threads[slot] = null;
      this.fail(thread, error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`paperlist: a merge thread exited (code ${code})`)));
    return thread;
  }

  private fail(thread: MergeThread, error: Error): void {
    const pending = [...thread.pending.values()];
    thread.pending.clear();
    for (const { reject } of pending) reject(error);
  }
}
