/** Texts laid end to end in one string, each followed by `separator`, and where each starts. */
export interface TextsEndToEnd {
  text: string;
  /** Per text: where it starts in `text`; one more entry: the end of `text`. */
  starts: Int32Array;
}

/**
 * Lays `texts` end to end, each followed by `separator` (a character no searched needle holds,
 * so that a match found by `indexOf` lies inside one text): one native search over many texts.
 */
export function textsEndToEnd(texts: readonly string[], separator: string): TextsEndToEnd {
  const starts = new Int32Array(texts.length + 1);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    starts[i] = at;
    at += texts[i]!.length + 1;
  }
  starts[texts.length] = at;
  return { text: texts.length === 0 ? '' : `${texts.join(separator)}${separator}`, starts };
}
