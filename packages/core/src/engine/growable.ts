type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
/** Makes an array of a length (see `alloc.ts`). */
type Make<T extends TypedArray> = (length: number) => T;

/** An append-only typed array that doubles its capacity as needed (build-time scratch). */
export class Growable<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly make: Make<T>,
    capacity = 1024,
  ) {
    this.data = make(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }

  /** Makes room for `capacity` values in all. */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < capacity) size *= 2;
    const grown = this.make(size);
    grown.set(this.data.subarray(0, this.length) as never);
    this.data = grown;
  }

  /** The backing array (valid until the next push). */
  get array(): T {
    return this.data;
  }

  /** A right-sized copy. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
}
