import { describe, expect, it } from 'vitest';
import { JsonLinesSplitter } from './json-lines-splitter.js';
import type { RawRecord } from './raw-record.js';

function split(chunks: readonly string[]): RawRecord[] {
  const splitter = new JsonLinesSplitter();
  const out: RawRecord[] = [];
  for (const chunk of chunks) splitter.push(chunk, out);
  splitter.end(out);
  return out;
}

describe('JsonLinesSplitter', () => {
  it.each<[string, string, [string, number][]]>([
    ['one line without a final newline', '{"a":1}', [['{"a":1}', 1]]],
    ['lines with a final newline', '{"a":1}\n{"b":2}\n', [['{"a":1}', 1], ['{"b":2}', 2]]],
    ['blank and whitespace-only lines', '\n{"a":1}\n\n  \t\n{"b":2}\n\n', [['{"a":1}', 2], ['{"b":2}', 5]]],
    ['CRLF line ends', '{"a":1}\r\n\r\n{"b":2}\r\n', [['{"a":1}', 1], ['{"b":2}', 3]]],
    ['leading whitespace in a record', '  {"a":1}\n', [['  {"a":1}', 1]]],
    ['nothing', '', []],
  ])('splits %s', (_name, text, expected) => {
    const want = expected.map(([line, number]) => ({ text: line, line: number }));
    expect(split([text])).toEqual(want);
    // The same, one character at a time.
    expect(split([...text])).toEqual(want);
  });

  it('reports the line it is on', () => {
    const splitter = new JsonLinesSplitter();
    const out: RawRecord[] = [];
    splitter.push('{"a":1}\n{"b"', out);
    expect(splitter.line).toBe(2);
  });
});
