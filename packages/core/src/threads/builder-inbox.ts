import type { Worker } from 'node:worker_threads';
import type { FromBuilder } from './build-messages.js';

/** The building thread's messages in order, with its crash or exit as a failure. */
export class BuilderInbox {
  private readonly queue: FromBuilder[] = [];
  private waiting: ((message: FromBuilder) => void) | null = null;

  constructor(worker: Worker) {
    const deliver = (message: FromBuilder) => {
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting !== null) waiting(message);
      else this.queue.push(message);
    };
    worker.on('message', deliver);
    worker.on('error', (error) => deliver({ type: 'failed', name: error.name, message: error.message }));
    worker.on('exit', (code) => deliver({ type: 'failed', name: 'Error', message: `paperlist: the index-building thread exited with code ${code}` }));
  }

  /** Whether a message arrived that nobody asked for yet (for a thread between builds: it crashed or exited). */
  get unread(): boolean {
    return this.queue.length > 0;
  }

  /** The next message, which must be of `type`; a failure is thrown as the thread's error. */
  async expect<T extends FromBuilder['type']>(type: T): Promise<Extract<FromBuilder, { type: T }>> {
    const message = this.queue.shift() ?? (await new Promise<FromBuilder>((resolve) => (this.waiting = resolve)));
    if (message.type === 'failed') {
      const error = new Error(message.message);
      error.name = message.name;
      throw error;
    }
    if (message.type !== type) throw new Error(`paperlist: the index-building thread answered ${message.type}, expected ${type}`);
    return message as Extract<FromBuilder, { type: T }>;
  }
}
