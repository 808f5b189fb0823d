/**
 * The record layouts a catalogue file may use: paperlist's own {@link Paper} records, or the
 * records of the Papers with Code dump `papers-with-abstracts.json(.gz)`.
 */
export type RecordFormat = 'paperlist' | 'pwc';

/** The record formats a reader accepts: one of {@link RecordFormat}, or `auto` to tell by the first record. */
export type RecordFormatOption = RecordFormat | 'auto';

export const RECORD_FORMATS: readonly RecordFormatOption[] = ['auto', 'paperlist', 'pwc'];

/**
 * The format of a catalogue told by the keys of its first record: a record with `paper_url` and
 * without `id` is a Papers with Code record, anything else a paperlist record.
 */
export function detectRecordFormat(keys: Iterable<string>): RecordFormat {
  let hasPaperUrl = false;
  for (const key of keys) {
    if (key === 'id') return 'paperlist';
    if (key === 'paper_url') hasPaperUrl = true;
  }
  return hasPaperUrl ? 'pwc' : 'paperlist';
}
