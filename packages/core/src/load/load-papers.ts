import { readPapers } from './read-papers.js';
import type { LoadResult, PaperInput, ReadPapersOptions } from './types.js';

/**
 * Reads a whole catalogue into memory with {@link readPapers} (same inputs, options and errors).
 * `skipped` counts the records rejected because of `skipInvalid` (always 0 without it).
 *
 * @example
 * const { papers, skipped } = await loadPapers('papers.jsonl.gz', { skipInvalid: true });
 */
export async function loadPapers(input: PaperInput, options: ReadPapersOptions = {}): Promise<LoadResult> {
  const papers = [];
  let skipped = 0;
  const { onInvalid } = options;
  const counting: ReadPapersOptions = {
    ...options,
    onInvalid: (problem) => {
      skipped++;
      onInvalid?.(problem);
    },
  };
  for await (const paper of readPapers(input, counting)) papers.push(paper);
  return { papers, skipped };
}
