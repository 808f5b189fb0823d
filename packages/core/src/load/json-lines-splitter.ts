import { isJsonWhitespace } from './json-whitespace.js';
import type { RawRecord, RecordSplitter } from './raw-record.js';

const LF = '\n';
const CR = 0x0d;

/** Cuts JSON Lines into one record per line; blank lines are skipped and a trailing `\r` is dropped. */
export class JsonLinesSplitter implements RecordSplitter {
  private currentLine = 1;
  /** Pieces of the line that is still incomplete at the end of the previous chunks. */
  private pending: string[] = [];

  get line(): number {
    return this.currentLine;
  }

  push(text: string, out: RawRecord[]): void {
    let start = 0;
    let newline = text.indexOf(LF);
    while (newline !== -1) {
      const piece = text.slice(start, newline);
      if (this.pending.length === 0) {
        this.emit(piece, out);
      } else {
        this.pending.push(piece);
        this.emit(this.pending.join(''), out);
        this.pending = [];
      }
      this.currentLine++;
      start = newline + 1;
      newline = text.indexOf(LF, start);
    }
    if (start < text.length) this.pending.push(start === 0 ? text : text.slice(start));
  }

  end(out: RawRecord[]): void {
    if (this.pending.length === 0) return;
    this.emit(this.pending.join(''), out);
    this.pending = [];
  }

  private emit(line: string, out: RawRecord[]): void {
    let end = line.length;
    if (end > 0 && line.charCodeAt(end - 1) === CR) end--;
    if (end === 0) return;
    if (isJsonWhitespace(line.charCodeAt(0)) && isBlank(line, end)) return;
    out.push({ text: end === line.length ? line : line.slice(0, end), line: this.currentLine });
  }
}

function isBlank(text: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isJsonWhitespace(text.charCodeAt(i))) return false;
  return true;
}
