import { textWords } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
const papers = await loadSamplePapers();
const texts = papers.flatMap((p) => [p.title, p.abstract, ...p.authors]).filter((s) => !/[^\x00-\x7f]/.test(s));
const FOLD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) FOLD[c] = c; for (let c = 97; c <= 122; c++) FOLD[c] = c; for (let c = 65; c <= 90; c++) FOLD[c] = c + 32;
class Pool {
  table = new Int32Array(1 << 17); mask = (1 << 17) - 1;
  hashes = new Int32Array(1 << 16); starts = new Uint32Array(1 << 16); lens = new Uint32Array(1 << 16);
  chars = new Uint16Array(1 << 20); used = 0; count = 0;
  tokenize(text: string, out: Uint32Array, at: number): number {
    let hash = 0x811c9dc5 | 0, len = 0, from = 0;
    const n = text.length;
    for (let i = 0; i <= n; i++) {
      const f = i < n ? FOLD[text.charCodeAt(i)]! : 0;
      if (f !== 0) { if (len === 0) from = i; hash = Math.imul(hash ^ f, 0x01000193); len++; continue; }
      if (len === 0) continue;
      let slot = hash & this.mask; let id = -1;
      for (;;) {
        const e = this.table[slot]!;
        if (e === 0) break;
        const cand = e - 1;
        if (this.hashes[cand] === hash && this.lens[cand] === len) {
          const s = this.starts[cand]!; let j = 0;
          while (j < len && this.chars[s + j] === FOLD[text.charCodeAt(from + j)]) j++;
          if (j === len) { id = cand; break; }
        }
        slot = (slot + 1) & this.mask;
      }
      if (id < 0) { id = this.count++; this.hashes[id] = hash; this.lens[id] = len; this.starts[id] = this.used; for (let j = 0; j < len; j++) this.chars[this.used++] = FOLD[text.charCodeAt(from + j)]!; this.table[slot] = id + 1; }
      out[at++] = id; len = 0; hash = 0x811c9dc5 | 0;
    }
    return at;
  }
}
for (let r = 0; r < 6; r++) {
  const pool = new Pool(); const out = new Uint32Array(100000);
  let t = performance.now(); let c1 = 0;
  for (const s of texts) c1 += pool.tokenize(s, out, 0);
  const b = performance.now() - t;
  t = performance.now(); let c3 = 0;
  for (const s of texts) c3 += pool.tokenize(s, out, 0);
  const b2 = performance.now() - t;
  t = performance.now(); let c2 = 0;
  for (const s of texts) c2 += textWords(s).length;
  console.log('pool', b.toFixed(1), 'pool-warm', b2.toFixed(1), 'textWords', (performance.now() - t).toFixed(1), c1, c2, pool.count);
}
