import type { AnnotationMap, PaperAnnotations } from '../annotations/annotations.js';
import { uint32Array, uint8Array } from './alloc.js';

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The papers' tasks and methods (see `PaperAnnotations`), beside the store: each document's
 * annotations as JSON bytes, `json[at[d]]..json[at[d + 1]]` (empty: none). Two arrays, so they
 * cross to threads and into snapshots like the rest of the index.
 */
export class AnnotationStore {
  constructor(
    /** The documents' annotations as JSON, one after the other. */
    readonly json: Uint8Array,
    /** Where each document's JSON starts (`n + 1` entries; none when no document has annotations). */
    readonly at: Uint32Array,
  ) {}

  /** Whether any document has annotations. */
  get isEmpty(): boolean {
    return this.json.length === 0;
  }

  /** Document `d`'s annotations, or `undefined` when it has none. */
  get(d: number): PaperAnnotations | undefined {
    if (this.json.length === 0) return undefined;
    const start = this.at[d]!;
    const end = this.at[d + 1]!;
    return start === end ? undefined : (JSON.parse(decoder.decode(this.json.subarray(start, end))) as PaperAnnotations);
  }

  /** The store of `n` documents from each one's annotations (in document order). */
  static build(n: number, annotationsOf: (d: number) => PaperAnnotations | undefined): AnnotationStore {
    const encoded: (Uint8Array | undefined)[] = new Array(n);
    let total = 0;
    for (let d = 0; d < n; d++) {
      const annotations = annotationsOf(d);
      if (annotations === undefined) continue;
      const bytes = utf8.encode(JSON.stringify({ tasks: annotations.tasks, methods: annotations.methods }));
      encoded[d] = bytes;
      total += bytes.length;
    }
    // A catalogue without tasks and methods (most) keeps no offsets: 4 bytes a paper saved.
    if (total === 0) return new AnnotationStore(new Uint8Array(0), new Uint32Array(0));
    const json = uint8Array(total);
    const at = uint32Array(n + 1);
    let offset = 0;
    for (let d = 0; d < n; d++) {
      at[d] = offset;
      const bytes = encoded[d];
      if (bytes !== undefined) {
        json.set(bytes, offset);
        offset += bytes.length;
      }
    }
    at[n] = offset;
    return new AnnotationStore(json, at);
  }

  /** A short digest of the annotations ('' when there are none), for the catalogue version. */
  digest(): string {
    if (this.isEmpty) return '';
    let h = 0x811c9dc5;
    for (let i = 0; i < this.json.length; i++) h = Math.imul(h ^ this.json[i]!, 0x01000193);
    for (let i = 0; i < this.at.length; i++) h = Math.imul(h ^ this.at[i]!, 0x01000193);
    return (h >>> 0).toString(16);
  }
}

/** The annotations of an index's documents by paper id (what a rebuild after a write keeps). */
export function annotationMapOf(store: AnnotationStore, idOf: (d: number) => string): AnnotationMap {
  const map = new Map<string, PaperAnnotations>();
  if (store.isEmpty) return map;
  const n = store.at.length - 1;
  for (let d = 0; d < n; d++) {
    const annotations = store.get(d);
    if (annotations !== undefined) map.set(idOf(d), annotations);
  }
  return map;
}
