import { IndexBuilder, type IndexData } from '../engine/builder.js';
import { estimateJsonBytes } from '../engine/paper-store.js';
import type { Paper } from '../paper.js';
import type { AnnotationMap } from '../annotations/annotations.js';

/**
 * An index of papers already in memory, with their tasks and methods by id when given.
 * `deferTables`: a write's delta, whose substring and suffix tables are built when first read (see `deferred-tables.ts`).
 */
export function buildIndex(papers: readonly Paper[], annotations?: AnnotationMap, deferTables = false): IndexData {
  const builder = new IndexBuilder(estimateJsonBytes(papers), true, deferTables);
  if (annotations === undefined || annotations.size === 0) for (const paper of papers) builder.add(paper);
  else for (const paper of papers) builder.add(paper, annotations.get(paper.id));
  return builder.finish();
}
