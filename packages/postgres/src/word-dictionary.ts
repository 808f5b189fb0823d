const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * The word dictionary while importing: folded words to their ids in `paperlist_words`. An
 * open-addressing hash table over a pool of UTF-16 codes, so that the words of ASCII text
 * are looked up straight from the text's characters, without a string per word (a catalogue
 * has tens of millions of word occurrences).
 */
export class WordDictionary {
  // Two slots per entry: id + 1 (0 is empty), then the word's hash.
  private table = new Int32Array(2 << 16);
  private mask = (1 << 16) - 1;
  // Per id: start of the word in `chars`, then its length.
  private spans = new Int32Array(2 << 12);
  private chars = new Uint16Array(1 << 16);
  private used = 0;
  private entries = 0;
  private maxId = 0;
  /** The id the first new word gets. */
  readonly firstNewId: number;
  /**
   * Whether the last {@link asciiWordIds} met a word of `maxLength` characters or more (one it
   * may have cut): found in the same pass, a regular expression over the text cost as much again.
   */
  longWord = false;

  /**
   * @param stored the dictionary as the database holds it (or the part of it a batch needs).
   * @param firstNewId the id of the first new word, when `stored` is only part of the dictionary
   * (then the largest stored id + 1); by default after the largest of `stored`.
   */
  constructor(stored: Iterable<readonly [string, number]> = [], firstNewId = 0) {
    for (const [word, id] of stored) this.insert(word, 0, word.length, hashOf(word, 0, word.length), id);
    this.maxId = Math.max(this.maxId, firstNewId - 1);
    this.firstNewId = this.maxId + 1;
  }

  /** Number of words known. */
  get size(): number {
    return this.entries;
  }

  /** The words added since the dictionary was loaded, with their ids, in id order. */
  *added(): Generator<[id: number, word: string]> {
    for (let id = this.firstNewId; id <= this.maxId; id++) {
      const start = this.spans[2 * id]!;
      yield [id, codesToString(this.chars, start, start + this.spans[2 * id + 1]!)];
    }
  }

  /** The id of a word, added (with the next id) when new. */
  idOf(word: string): number {
    return this.lookup(word, 0, word.length, hashOf(word, 0, word.length));
  }

  /**
   * The ids of the words of `text`, which must be lower-case ASCII: runs of `[a-z0-9]`, each
   * cut to `maxLength` characters. Appends them to `out` from `at`; returns the new end.
   * `out` needs room for one id per two characters (plus one). Sets {@link longWord}.
   */
  asciiWordIds(text: string, maxLength: number, out: Int32Array, at: number): number {
    const n = text.length;
    let hash = FNV_BASIS;
    let wordStart = -1;
    let longWord = false;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 0;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        if (wordStart < 0) wordStart = i;
        hash = Math.imul(hash ^ c, FNV_PRIME);
        continue;
      }
      if (wordStart < 0) continue;
      const stop = Math.min(i, wordStart + maxLength);
      if (i - wordStart >= maxLength) longWord = true;
      out[at++] = this.lookup(text, wordStart, stop, stop === i ? hash : hashOf(text, wordStart, stop));
      wordStart = -1;
      hash = FNV_BASIS;
    }
    this.longWord = longWord;
    return at;
  }

  private lookup(text: string, start: number, end: number, hash: number): number {
    const table = this.table;
    let slot = hash & this.mask;
    for (;;) {
      const entry = table[2 * slot]!;
      if (entry === 0) break;
      if (table[2 * slot + 1] === hash && this.equals(entry - 1, text, start, end)) return entry - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.maxId + 1;
    this.insert(text, start, end, hash, id);
    return id;
  }

  private equals(id: number, text: string, start: number, end: number): boolean {
    const from = this.spans[2 * id]!;
    const length = this.spans[2 * id + 1]!;
    if (length !== end - start) return false;
    const chars = this.chars;
    for (let i = 0; i < length; i++) if (chars[from + i] !== text.charCodeAt(start + i)) return false;
    return true;
  }

  private insert(text: string, start: number, end: number, hash: number, id: number): void {
    if ((this.entries + 1) * 2 > this.mask + 1) this.rehash();
    const length = end - start;
    if (2 * id + 1 >= this.spans.length) this.spans = grow(this.spans, 2 * id + 2);
    if (this.used + length > this.chars.length) this.chars = grow(this.chars, this.used + length);
    for (let i = 0; i < length; i++) this.chars[this.used + i] = text.charCodeAt(start + i);
    this.spans[2 * id] = this.used;
    this.spans[2 * id + 1] = length;
    this.used += length;
    let slot = hash & this.mask;
    while (this.table[2 * slot] !== 0) slot = (slot + 1) & this.mask;
    this.table[2 * slot] = id + 1;
    this.table[2 * slot + 1] = hash;
    this.entries++;
    if (id > this.maxId) this.maxId = id;
  }

  private rehash(): void {
    const old = this.table;
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let slot = 0; slot < old.length / 2; slot++) {
      const entry = old[2 * slot]!;
      if (entry === 0) continue;
      const hash = old[2 * slot + 1]!;
      let to = hash & this.mask;
      while (this.table[2 * to] !== 0) to = (to + 1) & this.mask;
      this.table[2 * to] = entry;
      this.table[2 * to + 1] = hash;
    }
  }
}

function codesToString(codes: Uint16Array, start: number, end: number): string {
  let out = '';
  for (let at = start; at < end; at += 4096) out += String.fromCharCode(...codes.subarray(at, Math.min(end, at + 4096)));
  return out;
}

function hashOf(text: string, start: number, end: number): number {
  let hash = FNV_BASIS;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

function grow<T extends Int32Array | Uint16Array>(array: T, needed: number): T {
  let size = array.length;
  while (size < needed) size *= 2;
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}
