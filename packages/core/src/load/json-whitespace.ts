/** True for the four whitespace characters JSON allows between tokens (space, tab, LF, CR). */
export function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
