/**
 * The buffers a query thread gathers its pages' JSON in, kept for reuse once the event loop's
 * thread has written a response and handed its buffer back (see `EnginePool` and the
 * `reuseBodies` option of `createRequestListener`).
 *
 * Why: every page crosses to the event loop's thread as a transferred `ArrayBuffer` (54 KB for
 * 50 papers, up to a few MB for 500). V8 counts each as external memory of the isolate that
 * holds it, and starts a full (mark-compact) collection for every few tens of MB of them: on
 * the thread that accepts connections, that was a 4–18 ms pause about twice a second under
 * load. A buffer handed back is detached there at once, so that thread's count stays at the
 * pages in flight.
 */

/** The smallest buffer made: a page of 50 papers fits. */
export const MIN_PAGE_BUFFER_BYTES = 1 << 16;

/** What a thread keeps, at most, of buffers handed back and not yet reused. */
export interface PageBufferLimits {
  /** Buffers kept per size (each size is a power of two). */
  perSize: number;
  /** Bytes kept in all. */
  totalBytes: number;
}

const DEFAULT_LIMITS: PageBufferLimits = { perSize: 8, totalBytes: 16 << 20 };

/** The size of the buffer made for a page of `bytes`: the next power of two, at least {@link MIN_PAGE_BUFFER_BYTES}. */
export function pageBufferSize(bytes: number): number {
  if (bytes <= MIN_PAGE_BUFFER_BYTES) return MIN_PAGE_BUFFER_BYTES;
  return 2 ** Math.ceil(Math.log2(bytes));
}

/**
 * Free page buffers by size. `take` answers a kept buffer of the page's size when there is one
 * (its old bytes are still there: the caller overwrites what it uses), else a new one.
 */
export class PageBuffers {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private keptBytes = 0;
  /** Buffers answered from those kept (for tests and benchmarks). */
  reused = 0;

  constructor(private readonly limits: PageBufferLimits = DEFAULT_LIMITS) {}

  /** A buffer of at least `bytes`, viewed whole. */
  take(bytes: number): Uint8Array {
    const size = pageBufferSize(bytes);
    const kept = this.free.get(size)?.pop();
    if (kept === undefined) return new Uint8Array(size);
    this.keptBytes -= size;
    this.reused++;
    return new Uint8Array(kept);
  }

  /** Keeps `buffer` for a later `take`, unless it has no size of ours or the limits are reached (then it is left to the GC). */
  give(buffer: ArrayBuffer): void {
    const size = buffer.byteLength;
    if (size !== pageBufferSize(size) || this.keptBytes + size > this.limits.totalBytes) return;
    const list = this.free.get(size) ?? [];
    if (list.length >= this.limits.perSize) return;
    list.push(buffer);
    this.free.set(size, list);
    this.keptBytes += size;
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.keptBytes;
  }
}
