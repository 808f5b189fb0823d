import type { Paper } from '../src/paper.js';

/**
 * Texts that trip substring searches up: characters whose lower case changes length or is
 * ASCII (`İ`, the Kelvin sign), ligatures and combining marks, escapes, runs of spaces, tabs
 * and newlines, punctuation around words, a field of one word, and an abstract too long for
 * the positions' bits (an oversize paper).
 */
export const TRICKY_TEXTS: Partial<Paper>[] = [
  { title: 'İstanbul and the Kelvin \u212a scale', abstract: 'Straße, naïve Bayes; ΟΔΟΣ and ﬁnal forms. İİ.' },
  { title: 'tab\tseparated  double  spaced', abstract: ' leading space, then new\nlines\r\nand trailing space ' },
  { title: 'e.g. state-of-the-art (CNN) results', abstract: 'We use e.g. x,y and x, y and x ,y; $\\alpha$-nets, a--b and a - b.' },
  { title: 'the', abstract: 'the' },
  { title: 'Café e\u0301 and ﬁle', abstract: 'Café CAFÉ cafe\u0301 e\u0301 ǅungla Ǆ' },
  { title: 'Long abstract', abstract: Array.from({ length: 9000 }, (_, i) => (i % 7 === 0 ? 'of the' : `w${i % 50}`)).join(' ') },
];
