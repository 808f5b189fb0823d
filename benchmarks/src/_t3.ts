import { textWords } from '@paperlist/core';
import { WordTable } from '../../packages/core/src/engine/word-table.js';
import { loadSamplePapers } from '@paperlist/core/sample';
const papers = await loadSamplePapers();
const texts = papers.flatMap((p) => [p.title, p.abstract, ...p.authors]).filter((s) => !/[^\x00-\x7f]/.test(s));
const FOLD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) FOLD[c] = c; for (let c = 97; c <= 122; c++) FOLD[c] = c; for (let c = 65; c <= 90; c++) FOLD[c] = c + 32;
function scanOnly(text: string): number {
  let hash = 0x811c9dc5 | 0, len = 0, words = 0, acc = 0;
  for (let i = 0; i < text.length; i++) {
    const f = FOLD[text.charCodeAt(i)]!;
    if (f === 0) { if (len > 0) { words++; acc ^= hash; len = 0; hash = 0x811c9dc5 | 0; } continue; }
    hash = Math.imul(hash ^ f, 0x01000193); len++;
  }
  if (len > 0) { words++; acc ^= hash; }
  return words + (acc & 0);
}
for (let r = 0; r < 6; r++) {
  let t = performance.now(); let c = 0;
  for (const s of texts) c += scanOnly(s);
  const a = performance.now() - t;
  const table = new WordTable(); const out = new Uint32Array(100000);
  t = performance.now(); let c1 = 0;
  for (const s of texts) c1 += table.tokenize(s, out, 0);
  const b = performance.now() - t;
  t = performance.now(); let c2 = 0;
  for (const s of texts) c2 += textWords(s).length;
  console.log('scan', a.toFixed(1), 'table', b.toFixed(1), 'textWords', (performance.now() - t).toFixed(1), c, c1, c2);
}
