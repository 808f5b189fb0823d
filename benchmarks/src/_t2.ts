import { textWords } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
const papers = await loadSamplePapers();
const texts = papers.flatMap((p) => [p.title, p.abstract, ...p.authors]);
const NON_ASCII = /[^\x00-\x7f]/;
const WORD = /[a-z0-9]+/g;
function viaMap(map: Map<string, number>, words: string[], text: string, out: Uint32Array, at: number) {
  const list = NON_ASCII.test(text) ? textWords(text) : (text.toLowerCase().match(WORD) ?? []);
  for (const w of list) {
    let id = map.get(w);
    if (id === undefined) { id = words.length; words.push(w); map.set(w, id); }
    out[at++] = id;
  }
  return at;
}
for (let r = 0; r < 6; r++) {
  const map = new Map<string, number>(); const words: string[] = [];
  const out = new Uint32Array(100000);
  let t = performance.now(); let c = 0;
  for (const s of texts) c += viaMap(map, words, s, out, 0);
  const a = performance.now() - t;
  t = performance.now(); let c2 = 0;
  for (const s of texts) c2 += textWords(s).length;
  console.log('map', a.toFixed(1), c, 'textWords', (performance.now() - t).toFixed(1), c2, words.length);
}
