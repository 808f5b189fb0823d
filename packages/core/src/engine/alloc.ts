/**
 * Allocation of the index's large typed arrays. They live in `SharedArrayBuffer`s when the
 * runtime has them: V8 counts ordinary `ArrayBuffer`s as external memory and runs a full
 * garbage collection for about every 64 MiB of them, which, while the caller holds a large
 * heap (a million paper objects), costs more than building the index. Shared buffers are
 * not counted that way. They never leave the engine: the papers' JSON, which responses
 * carry, stays in ordinary buffers (see `PaperStore`).
 */
const Backing: ArrayBufferConstructor | SharedArrayBufferConstructor =
  typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer;

/**
 * Arrays smaller than this are ordinary. A query's scratch arrays count too: a bitset over 498k
 * papers is 62 KB, and with ordinary buffers each query thread ran a full collection about
 * twice a second under load (the V8 threads marking for them took a sixth of the server's CPU).
 * Below 4 KB an array's external memory is too small to matter.
 */
const SHARED_FROM_BYTES = 1 << 12;

function buffer(bytes: number): ArrayBufferLike {
  return bytes >= SHARED_FROM_BYTES ? new Backing(bytes) : new ArrayBuffer(bytes);
}

export function uint8Array(length: number): Uint8Array {
  return new Uint8Array(buffer(length));
}

export function uint16Array(length: number): Uint16Array {
  return new Uint16Array(buffer(length * 2));
}

export function uint32Array(length: number): Uint32Array {
  return new Uint32Array(buffer(length * 4));
}

export function int32Array(length: number): Int32Array {
  return new Int32Array(buffer(length * 4));
}

export function float64Array(length: number): Float64Array {
  return new Float64Array(buffer(length * 8));
}
