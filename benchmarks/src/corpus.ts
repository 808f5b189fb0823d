import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Paper } from '@paperlist/core';
import { readPapers } from '@paperlist/core/node';
import type { CorpusSize } from './args.js';

/** The large real catalogue (498,216 papers); override with PAPERLIST_LARGE_CATALOG. */
export const LARGE_CATALOG =
  process.env['PAPERLIST_LARGE_CATALOG'] ?? fileURLToPath(new URL('../../../shared/data/papers-large.jsonl.gz', import.meta.url));

export function corpusAvailable(): boolean {
  return existsSync(LARGE_CATALOG);
}

/** Suffix of the second copy's id in the 1M corpus. */
const COPY_SUFFIX = '--copy2';

/**
 * The papers of a benchmark corpus: the large file (500k), or every paper of it twice (1m), the
 * second copy with a distinct id (`<id>--copy2`) and otherwise identical.
 */
export async function* corpusPapers(size: CorpusSize): AsyncGenerator<Paper> {
  for await (const paper of readPapers(LARGE_CATALOG)) {
    yield paper;
    if (size === '1m') yield { ...paper, id: `${paper.id}${COPY_SUFFIX}` };
  }
}

export async function loadCorpus(size: CorpusSize): Promise<Paper[]> {
  const papers: Paper[] = [];
  for await (const paper of corpusPapers(size)) papers.push(paper);
  const ids = new Set(papers.map((p) => p.id));
  if (ids.size !== papers.length) throw new Error('benchmark corpus: duplicate ids');
  return papers;
}
