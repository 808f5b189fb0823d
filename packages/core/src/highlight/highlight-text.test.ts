import { describe, expect, it } from 'vitest';
import { parseSearch } from '../text/parse-search.js';
import { highlightText } from './highlight-text.js';

const terms = (q: string) => {
  const parsed = parseSearch(q);
  if (!parsed.ok) throw new Error(q);
  return parsed.terms;
};

describe('highlightText', () => {
  it.each([
    ['Attention Is All You Need', 'attent need', '<mark>Attent</mark>ion Is All You <mark>Need</mark>'],
    ['Transformers are RNNs', 'transformer', '<mark>Transformer</mark>s are RNNs'],
    ['Schrödinger’s Naïve Model', 'schrodinger naive', '<mark>Schrödinger</mark>’s <mark>Naïve</mark> Model'],
    ['The <b> & "tags"', 'tags', 'The &lt;b&gt; &amp; &quot;<mark>tags</mark>&quot;'],
    // Each matched word is marked by itself: what lies between the words of a phrase is not part of the match.
    ['GPT-4 beats GPT-3', 'gpt-4', '<mark>GPT</mark>-<mark>4</mark> beats GPT-3'],
    ['neural machine translation of rare words', '"machine translation"', 'neural <mark>machine</mark> <mark>translation</mark> of rare words'],
    ['a machine that translates', '"machine translation"', 'a machine that translates'],
    ['ﬁne-tuning ﬁnds', 'fin', '<mark>ﬁn</mark>e-tuning <mark>ﬁn</mark>ds'],
    ['ﬁne', 'f', '<mark>ﬁ</mark>ne'],
    ['𝐀𝐁𝐂 math bold', 'abc', '<mark>𝐀𝐁𝐂</mark> math bold'],
    ['Nothing matches here', 'zebra', 'Nothing matches here'],
    ['data, data and DATA', 'data', '<mark>data</mark>, <mark>data</mark> and <mark>DATA</mark>'],
    ['overlap: learning learn', 'learn learning', 'overlap: <mark>learning</mark> <mark>learn</mark>'],
    ['Über naïve models', '"uber naive"', '<mark>Über</mark> <mark>naïve</mark> models'],
    ['Über naïve models', '"uber nai"', '<mark>Über</mark> <mark>naï</mark>ve models'],
    ['naïve über', '"uber naive"', 'naïve über'],
  ])('%j with q=%j', (text, q, html) => {
    expect(highlightText(text, terms(q))).toBe(html);
  });

  it('marks nothing rather than the wrong letters when folding one character at a time differs (final sigma)', () => {
    expect(highlightText('ΟΔΟΣ road', terms('road'))).toBe('ΟΔΟΣ road');
  });

  it('crops around the first match, a few words before it, with ellipses where it cut', () => {
    const text = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    expect(highlightText(text, terms('w20'), { crop: 6 })).toBe('…w17 w18 w19 <mark>w20</mark> w21 w22…');
    expect(highlightText(text, terms('w1'), { crop: 4 })).toBe('w0 <mark>w1</mark> w2 w3…');
    expect(highlightText(text, terms('w59'), { crop: 3 })).toBe('…w57 w58 <mark>w59</mark>');
    expect(highlightText(text, terms('zebra'), { crop: 2 })).toBe('w0 w1…');
    expect(highlightText('short text', terms('text'), { crop: 30 })).toBe('short <mark>text</mark>');
    const accented = Array.from({ length: 20 }, (_, i) => `é${i}`).join(' ');
    expect(highlightText(accented, terms('e10'), { crop: 3 })).toBe('…é8 é9 <mark>é10</mark>…');
  });
});
