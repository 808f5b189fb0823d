import { IndexBuilder, type IndexData } from '../engine/builder.js';
import { estimateJsonBytes } from '../engine/paper-store.js';
import type { Paper } from '../paper.js';

/** An index of papers already in memory. */
export function buildIndex(papers: readonly Paper[]): IndexData {
  const builder = new IndexBuilder(estimateJsonBytes(papers));
  for (const paper of papers) builder.add(paper);
  return builder.finish();
}
