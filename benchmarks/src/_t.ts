import { textWords } from '@paperlist/core';
import { WordTable } from '../../packages/core/src/engine/word-table.js';
import { loadSamplePapers } from '@paperlist/core/sample';
const papers = await loadSamplePapers();
const texts = papers.flatMap((p) => [p.title, p.abstract, ...p.authors]);
let ascii = 0; for (const s of texts) if (!/[^\x00-\x7f]/.test(s)) ascii++;
console.log('ascii texts', ascii, texts.length);
for (let r = 0; r < 5; r++) {
  const table = new WordTable();
  const out = new Uint32Array(100000);
  let t = performance.now(); let c = 0;
  for (const s of texts) c += table.tokenize(s, out, 0);
  const a = performance.now() - t;
  t = performance.now(); let c2 = 0;
  for (const s of texts) c2 += textWords(s).length;
  console.log('table', a.toFixed(1), c, 'textWords', (performance.now() - t).toFixed(1), c2, table.size);
}
