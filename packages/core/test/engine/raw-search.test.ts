import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canSearchRaw, prepareRawNeedle, rawContains, rawContainsAnyText, rawContainsShort } from '../../src/engine/substring/raw-search.js';

/** The raw-bytes search of ASCII JSON strings against decoding them and `toLowerCase().includes`. */
describe('rawContains', () => {
  const encode = (text: string) => new TextEncoder().encode(`{"x":${JSON.stringify(text)},"y":"n\\"0"}`);
  const check = (text: string, needle: string) => {
    const bytes = new TextEncoder().encode(needle);
    if (!canSearchRaw(bytes)) return;
    const json = encode(text);
    expect(rawContains(json, 5, prepareRawNeedle(bytes)), `${JSON.stringify(text)} ∋ ${JSON.stringify(needle)}`).toBe(text.toLowerCase().includes(needle));
  };

  it.each([
    ['new\nlines', 'nlines'],
    ['new\nlines', 'lines'],
    ['tab\tsep', 'tsep'],
    ['a\u0001b', '001'],
    ['a\u001fb', '01fb'],
    ['a\u001fb', 'fb'],
    ['back\\nslash', 'nslash'],
    ['quote"n', 'n'],
    ['ends with n', 'n"'],
    ['ABC', 'abc'],
    ['', 'a'],
    ['xyz', 'xyz0'],
  ])('%j contains %j only where the text does', (text, needle) => check(text, needle));

  it('agrees with the decoded text on random strings with escapes', () => {
    const alphabet = ['a', 'B', 'n', 't', 'u', '0', '1', 'f', ' ', '.', '\n', '\t', '\r', '\u0001', '\u001f', '"', '\\', 'e', 'g'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), fc.array(fc.constantFrom('a', 'b', 'n', 't', 'u', '0', '1', 'f', ' ', '.', 'e', 'g'), { minLength: 1, maxLength: 4 }), (chars, needle) => {
        check(chars.join(''), needle.join(''));
      }),
      { numRuns: 5000, seed: 3 },
    );
  });

  it('is exact on text of any characters but the two whose lower case is ASCII', () => {
    const alphabet = ['a', 'B', 'n', 'k', 'i', 'K', 'I', 's', ' ', '.', '\n', '"', '\\', 'é', 'É', 'ß', 'ﬁ', '😀', '\u0301', '\ud800', 'Σ', 'ς', 'Ą', 'ê', '—', 'ℓ'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), fc.array(fc.constantFrom('a', 'b', 'n', 'k', 'i', 's', ' ', '.', 'e', 'f'), { minLength: 1, maxLength: 4 }), (chars, needle) => {
        check(chars.join(''), needle.join(''));
      }),
      { numRuns: 5000, seed: 11 },
    );
  });

  it('refuses needles holding characters JSON escapes', () => {
    for (const needle of ['"', '\\', '\n', 'a\tb', 'é']) expect(canSearchRaw(new TextEncoder().encode(needle))).toBe(false);
  });
});

/** The one-pass search of short strings: the exact answer, or undefined (escapes, long strings). */
describe('rawContainsShort', () => {
  const encode = (text: string) => new TextEncoder().encode(`{"x":${JSON.stringify(text)},"y":"n\\"0"}`);
  const check = (text: string, needle: string) => {
    const bytes = new TextEncoder().encode(needle);
    if (!canSearchRaw(bytes)) return;
    const got = rawContainsShort(encode(text), 5, prepareRawNeedle(bytes));
    const expected = text.toLowerCase().includes(needle);
    // Undefined only for texts with escapes or of many bytes; never a wrong answer.
    if (got === undefined) expect(/[\u0000-\u001f"\\]/u.test(text) || text.length > 300, `${JSON.stringify(text)} ∋ ${JSON.stringify(needle)}`).toBe(true);
    else expect(got, `${JSON.stringify(text)} ∋ ${JSON.stringify(needle)}`).toBe(expected);
  };

  it.each([
    ['Deep Residual Learning', 'in'],
    ['Deep Residual Learning', 'g'],
    ['Deep Residual Learning', 'ng"'],
    ['ABC', 'abc'],
    ['', 'a'],
    ['ends with n', 'n,'],
    ['x'.repeat(400) + 'in', 'in'],
    ['new\nlines', 'nlines'],
    ['match before \\ an escape', 'match'],
  ])('%j contains %j only where the text does', (text, needle) => check(text, needle));

  it('agrees with the decoded text on random strings with escapes', () => {
    const alphabet = ['a', 'B', 'n', 't', 'u', '0', '1', 'f', ' ', '.', '\n', '\t', '\u0001', '"', '\\', 'e', 'g'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), fc.array(fc.constantFrom('a', 'b', 'n', 't', 'u', '0', '1', 'f', ' ', '.', 'e', 'g'), { minLength: 1, maxLength: 4 }), (chars, needle) => {
        check(chars.join(''), needle.join(''));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });
});

/** The same search over text with any characters: exact, or null where lower-casing makes ASCII. */
describe('rawContainsAnyText', () => {
  const encode = (text: string) => new TextEncoder().encode(`{"x":${JSON.stringify(text)},"y":"n\\"0"}`);
  const check = (text: string, needle: string) => {
    const bytes = new TextEncoder().encode(needle);
    if (!canSearchRaw(bytes)) return;
    const got = rawContainsAnyText(encode(text), 5, prepareRawNeedle(bytes));
    const lowersToAscii = /[\u0130\u212a]/u.test(text);
    expect(got, `${JSON.stringify(text)} ∋ ${JSON.stringify(needle)}`).toBe(lowersToAscii ? null : text.toLowerCase().includes(needle));
    // Told the text holds no `İ` (when it holds none), it still finds the Kelvin sign.
    if (!text.includes('\u0130')) {
      const told = rawContainsAnyText(encode(text), 5, prepareRawNeedle(bytes), false);
      expect(told, `${JSON.stringify(text)} ∋ ${JSON.stringify(needle)}, no İ`).toBe(text.includes('\u212a') ? null : text.toLowerCase().includes(needle));
    }
  };

  it.each([
    ['İstanbul', 'istanbul'],
    ['İstanbul', 'stanbul'],
    ['\u212a scale', 'k scale'],
    ['Café CAFÉ', 'caf'],
    ['naïve Bayes', 've bayes'],
    ['Straße', 'strasse'],
    ['ﬁnal', 'final'],
    ['emoji 😀 and', ' and'],
    ['lone \ud800 surrogate', 'd800'],
    ['lone \ud800 surrogate', ' surrogate'],
    ['crêpe \u212a', 'k'],
    ['Ī and ê then \u212a', 'e t'],
  ])('%j contains %j only where the text does', (text, needle) => check(text, needle));

  it('agrees with the decoded text on random strings of any characters', () => {
    const alphabet = ['a', 'B', 'n', 'k', 'i', 'K', 'I', 's', ' ', '.', '\n', '"', '\\', 'é', 'É', 'İ', '\u212a', 'ß', 'ﬁ', '😀', '\u0301', '\ud800', 'Σ', 'ς'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), fc.array(fc.constantFrom('a', 'b', 'n', 'k', 'i', 's', ' ', '.', 'e', 'f'), { minLength: 1, maxLength: 4 }), (chars, needle) => {
        check(chars.join(''), needle.join(''));
      }),
      { numRuns: 5000, seed: 5 },
    );
  });
});

describe('raw searches in a store chunk', () => {
  it('read strings inside a chunk over shared memory, at any offset, as in a fresh copy', () => {
    // A chunk as a query thread sees a store's: a view at an offset into a SharedArrayBuffer,
    // many strings in a row, searched again and again (its Buffer view is made once and kept).
    const texts = ['state of the art', 'e, then "quoted"', 'new\nline e,', 'Ünïcode e, ok', 'plain text', '-based'];
    const pieces = texts.map((t) => new TextEncoder().encode(`{"x":${JSON.stringify(t)}}`));
    const shared = new SharedArrayBuffer(4096);
    const chunk = new Uint8Array(shared, 7, 4000);
    const starts: number[] = [];
    let at = 3;
    for (const piece of pieces) {
      chunk.set(piece, at);
      starts.push(at + 5);
      at += piece.length;
    }
    for (const needle of ['e,', 'the', 'e', '-b', 'ne', 'ok', 'x', 'quoted']) {
      const raw = prepareRawNeedle(new TextEncoder().encode(needle));
      texts.forEach((text, i) => {
        const want = text.toLowerCase().includes(needle);
        const ascii = !/[^\x00-\x7f]/.test(text);
        if (ascii) expect(rawContains(chunk, starts[i]!, raw), `${text} ∋ ${needle}`).toBe(want);
        expect(rawContainsAnyText(chunk, starts[i]!, raw), `${text} ∋ ${needle}`).toBe(want);
      });
    }
  });
});
