import { isPool, quoteIdent, type PoolClientLike, type Queryable } from '../db.js';

/** A pool client that emits notifications and connection errors (`pg.PoolClient`). */
interface EventClient extends PoolClientLike {
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** PGlite's own LISTEN: a callback per channel, and a function that stops it. */
interface ListeningDb extends Queryable {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** What the listener tells its owner. */
export interface ListenerEvents {
  /** A NOTIFY arrived on the channel (its payload: the newest sequence logged). */
  notified(): void;
  /** LISTEN is in place (at start, and after each reconnection): changes made meanwhile may have been missed. */
  connected(): void;
  /** The listening connection was lost or could not be made; a new attempt follows after a pause. */
  lost(error: Error): void;
}

/** The longest pause between two attempts to connect. */
const MAX_RETRY_MS = 5000;
const FIRST_RETRY_MS = 100;

/**
 * LISTEN on a connection of its own, kept open: on a `pg.Pool`, a client checked out for good
 * (one connection of the pool), replaced with growing pauses (100 ms up to 5 s) when the server
 * drops it; on PGlite, its `listen()`. Another handle (a bare `pg.Client`) cannot give a
 * connection of its own: the follower then polls only.
 */
export class ChangeListener {
  private client: EventClient | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private up = false;
  /** The current run of failures was reported already (once per outage, not once per attempt). */
  private reported = false;

  constructor(
    private readonly db: Queryable,
    private readonly channel: string,
    private readonly events: ListenerEvents,
  ) {}

  /** Whether notifications can arrive now. */
  get listening(): boolean {
    return this.up;
  }

  /** Whether this handle can listen at all (a pool or PGlite). */
  get supported(): boolean {
    return isPool(this.db) || isListeningDb(this.db);
  }

  /** Starts listening; resolves after the first attempt (whether or not it succeeded: failures retry by themselves). */
  async start(): Promise<void> {
    await this.attempt();
  }

  private async attempt(): Promise<void> {
    this.retry = undefined;
    if (this.closed) return;
    try {
      if (isPool(this.db)) await this.listenOnPool(this.db);
      else if (isListeningDb(this.db)) this.unlisten = await this.db.listen(this.channel, () => this.events.notified());
      else return;
      this.up = true;
      this.reported = false;
      this.retryMs = FIRST_RETRY_MS;
      this.events.connected();
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async listenOnPool(pool: Queryable & { connect(): Promise<PoolClientLike> }): Promise<void> {
    const client = (await pool.connect()) as EventClient;
    if (this.closed) {
      client.release();
      return;
    }
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners('notification');
      client.release(error ?? new Error('connection ended'));
      this.fail(error ?? new Error('paperlist: the listening connection ended'));
    };
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.events.notified();
    });
    client.on('error', lost);
    client.on('end', lost);
    this.client = client;
    try {
      await client.query(`LISTEN ${quoteIdent(this.channel)}`);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  private fail(error: Error): void {
    this.up = false;
    if (this.closed || this.retry !== undefined) return;
    if (!this.reported) {
      this.reported = true;
      this.events.lost(error);
    }
    const wait = this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    this.retry = setTimeout(() => void this.attempt(), wait);
    this.retry.unref();
  }

  /** Stops listening and gives the connection back. */
  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    if (this.retry !== undefined) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      client.removeAllListeners('notification');
      await client.query(`UNLISTEN ${quoteIdent(this.channel)}`).catch(() => {});
      client.removeAllListeners('error');
      client.removeAllListeners('end');
      // An error after this point (the pool ending) must not crash the process.
      client.on('error', () => {});
      client.release();
    }
    await this.unlisten?.().catch(() => {});
  }
}

function isListeningDb(db: Queryable): db is ListeningDb {
  return typeof (db as Partial<ListeningDb>).listen === 'function';
}
