import { validatePaper, type Paper } from '@paperlist/core';
import { PaperLoadError, readPapers } from '@paperlist/core/node';
import { unstorableReason } from './copy-format.js';

/** What can be imported: a catalogue file (any format `readPapers` reads), or papers. */
export type ImportInput = string | AsyncIterable<Paper> | Iterable<Paper>;

/** A validated paper and where it was in the input. */
export interface Numbered {
  paper: Paper;
  /** 1-based position in the input. */
  record: number;
}

/** The input as validated papers with their positions. */
export async function* paperStream(
  input: ImportInput,
  signal: AbortSignal | undefined,
  progress: { bytes: number | undefined },
): AsyncGenerator<Numbered> {
  let record = 0;
  if (typeof input === 'string') {
    const options = signal === undefined ? {} : { signal };
    for await (const paper of readPapers(input, { ...options, onProgress: ({ bytes }) => (progress.bytes = bytes) })) {
      record++;
      const reason = unstorableReason(paper);
      // readPapers does not say which line a paper came from: name the record instead.
      if (reason !== undefined) throw new PaperLoadError(`record ${record} (id ${JSON.stringify(paper.id)}): ${reason}`, record, input);
      yield { paper, record };
    }
    return;
  }
  const seen = new Map<string, number>();
  for await (const value of input as AsyncIterable<unknown>) {
    record++;
    if (record % 1000 === 0) signal?.throwIfAborted();
    const checked = validatePaper(value);
    if (!checked.ok) throw new PaperLoadError(checked.reason, record);
    const paper = checked.paper;
    const reason = unstorableReason(paper);
    if (reason !== undefined) throw new PaperLoadError(reason, record);
    const first = seen.get(paper.id);
    if (first !== undefined) throw new PaperLoadError(`duplicate id ${JSON.stringify(paper.id)} (first seen on line ${first})`, record);
    seen.set(paper.id, record);
    yield { paper, record };
  }
}
