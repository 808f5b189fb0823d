import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from './json-array-splitter.js';
import { PaperLoadError } from './paper-load-error.js';
import type { RawRecord } from './raw-record.js';

/** Feeds `chunks` to a splitter and returns the elements it cut (text and line). */
function split(chunks: readonly string[]): RawRecord[] {
  const splitter = new JsonArraySplitter('test.json');
  const out: RawRecord[] = [];
  for (const chunk of chunks) splitter.push(chunk, out);
  splitter.end(out);
  return out;
}

/** Every way of cutting `text` into chunks of `size` characters. */
function chunked(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

function splitError(chunks: readonly string[]): PaperLoadError {
  try {
    split(chunks);
  } catch (error) {
    expect(error).toBeInstanceOf(PaperLoadError);
    return error as PaperLoadError;
  }
  throw new Error('expected a PaperLoadError');
}

const tricky = [
  '[',
  '  {"a": "x, ] } \\" \\\\", "b": [1, {"c": "["}]},',
  '  "a string with \\\\\\" and ]",',
  '  12.5e3 ,',
  '  null,',
  '  {"u": "\\u00e9\\\\"}',
  ']',
].join('\n');

describe('JsonArraySplitter', () => {
  it.each<[string, string, [string, number][]]>([
    ['an empty array', '[]', []],
    ['an empty array with whitespace', ' \n[ \n ] \n', []],
    ['a compact array', '[{"a":1},{"b":2},{"c":3}]', [['{"a":1}', 1], ['{"b":2}', 1], ['{"c":3}', 1]]],
    [
      'a pretty-printed array',
      '[\n  {\n    "a": 1\n  },\n  {\n    "b": 2\n  }\n]\n',
      [['{\n    "a": 1\n  }', 2], ['{\n    "b": 2\n  }', 5]],
    ],
    ['scalar elements', '[1, "two" ,null,true]', [['1', 1], ['"two"', 1], ['null', 1], ['true', 1]]],
    ['a scalar closed by ]', '[1]', [['1', 1]]],
    ['nested arrays', '[[1,[2]],[]]', [['[1,[2]]', 1], ['[]', 1]]],
    ['CRLF line ends', '[\r\n{"a":1},\r\n{"b":2}\r\n]', [['{"a":1}', 2], ['{"b":2}', 3]]],
  ])('splits %s', (_name, text, expected) => {
    const want = expected.map(([element, line]) => ({ text: element, line }));
    expect(split([text])).toEqual(want);
  });

  it('keeps brackets, commas and escaped quotes inside strings', () => {
    const elements = split([tricky]);
    expect(elements.map((e) => e.line)).toEqual([2, 3, 4, 5, 6]);
    expect(elements.map((e) => JSON.parse(e.text) as unknown)).toEqual(JSON.parse(tricky));
  });

  it.each([1, 2, 3, 5, 7, 64])('gives the same elements whatever the chunk size (%i)', (size) => {
    expect(split(chunked(tricky, size))).toEqual(split([tricky]));
  });

  it('handles a backslash at the very end of a chunk', () => {
    const text = '[{"a":"x\\\\"},{"b":"\\""}]';
    for (let cut = 1; cut < text.length; cut++) {
      const elements = split([text.slice(0, cut), text.slice(cut)]);
      expect(elements.map((e) => JSON.parse(e.text) as unknown), `cut at ${cut}`).toEqual([{ a: 'x\\' }, { b: '"' }]);
    }
  });

  it('counts lines across chunks', () => {
    const text = '[\n\n{"a":\n1},\n\n\n{"b":2}]';
    expect(split(chunked(text, 1)).map((e) => e.line)).toEqual([3, 7]);
  });

  it('leaves invalid but balanced elements to JSON.parse', () => {
    expect(split(['[{x}, {"a":}, tru]'])).toEqual([
      { text: '{x}', line: 1 },
      { text: '{"a":}', line: 1 },
      { text: 'tru', line: 1 },
    ]);
  });

  it.each<[string, string[], number, string]>([
    ['a truncated element', ['[\n{"a":1},\n{"b":'], 3, 'the element starting on line 3 is incomplete'],
    ['a truncated string', ['[{"a":"abc'], 1, 'the element starting on line 1 is incomplete'],
    ['a missing ]', ['[\n{"a":1}\n'], 3, 'not closed'],
    ['a missing ] after a comma', ['[{"a":1},'], 1, 'not closed'],
    ['trailing garbage', ['[{"a":1}]\n\nx'], 3, 'unexpected data after the end of the JSON array'],
    ['a second array', ['[][]'], 1, 'unexpected data after the end of the JSON array'],
    ['a missing comma', ['[{"a":1}\n{"b":2}]'], 2, 'expected "," or "]" after an array element, got "{"'],
    ['an extra closing brace', ['[{"a":1}}]'], 1, 'expected "," or "]" after an array element, got "}"'],
    ['an empty element', ['[{"a":1},,{"b":2}]'], 1, 'expected an array element after ",", got ","'],
    ['a trailing comma', ['[{"a":1},\n]'], 2, 'expected an array element after ",", got "]"'],
  ])('rejects %s', (_name, chunks, line, reason) => {
    const error = splitError(chunks);
    expect(error.line).toBe(line);
    expect(error.file).toBe('test.json');
    expect(error.reason).toContain(reason);
    expect(error.message).toBe(`test.json line ${line}: ${error.reason}`);
  });
});
