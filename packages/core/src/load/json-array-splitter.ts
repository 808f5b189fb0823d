import { isJsonWhitespace } from './json-whitespace.js';
import { PaperLoadError } from './paper-load-error.js';
import type { RawRecord, RecordSplitter } from './raw-record.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Before the opening `[`. */
const BEFORE_ARRAY = 0;
/** After `[`: an element or `]`. */
const BEFORE_FIRST = 1;
/** After `,`: an element. */
const BEFORE_NEXT = 2;
/** Inside an element. */
const IN_ELEMENT = 3;
/** After a complete element: `,` or `]`. */
const AFTER_ELEMENT = 4;
/** After the closing `]`: only whitespace. */
const AFTER_ARRAY = 5;

/**
 * Cuts a JSON array, fed chunk by chunk, into the text of its top-level elements, each with the
 * line where it starts, so that each element can be parsed on its own. It only tracks nesting depth
 * and strings; the elements themselves are checked by `JSON.parse`. A malformed array (missing `,`,
 * empty element, truncated array, data after `]`) throws a {@link PaperLoadError}.
 */
export class JsonArraySplitter implements RecordSplitter {
  private phase = BEFORE_ARRAY;
  /** Line at position `counted` of the current chunk. */
  private currentLine = 1;
  private text = '';
  /** Index of the next `\n` in `text` not yet counted, or -1. */
  private nextNewline = -1;

  private depth = 0;
  private inString = false;
  /** A backslash ended the previous chunk inside a string: the next character is escaped. */
  private escaped = false;
  private elementLine = 0;
  /** Pieces of the current element from previous chunks. */
  private parts: string[] = [];

  constructor(private readonly file?: string) {}

  get line(): number {
    return this.currentLine;
  }

  push(text: string, out: RawRecord[]): void {
    this.text = text;
    this.nextNewline = text.indexOf('\n');
    const n = text.length;
    let i = 0;
    let start = 0; // start of the current element in this chunk
    let phase = this.phase;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;

    while (i < n) {
      if (phase === IN_ELEMENT) {
        if (inString) {
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          const from = i;
          const quote = text.indexOf('"', from);
          if (quote === -1) {
            escaped = endsWithOddBackslashes(text, n, from);
            i = n;
            break;
          }
          i = quote + 1;
          if (endsWithOddBackslashes(text, quote, from)) continue; // an escaped quote
          inString = false;
          if (depth === 0) {
            this.emit(text, start, i, out);
            phase = AFTER_ELEMENT;
          }
          continue;
        }
        const c = text.charCodeAt(i);
        if (c === QUOTE) {
          inString = true;
          i++;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          depth++;
          i++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (depth > 0) {
            depth--;
            i++;
            if (depth === 0) {
              this.emit(text, start, i, out);
              phase = AFTER_ELEMENT;
            }
          } else if (c === CLOSE_BRACKET) {
            // A scalar element ended by the end of the array.
            this.emit(text, start, i, out);
            phase = AFTER_ARRAY;
            i++;
          } else {
            i++; // a stray `}`: part of an invalid element, JSON.parse will say so
          }
        } else if (depth === 0 && c === COMMA) {
          this.emit(text, start, i, out);
          phase = BEFORE_NEXT;
          i++;
        } else if (depth === 0 && isJsonWhitespace(c)) {
          this.emit(text, start, i, out);
          phase = AFTER_ELEMENT;
          i++;
        } else {
          i++;
        }
        continue;
      }

      const c = text.charCodeAt(i);
      if (isJsonWhitespace(c)) {
        i++;
        continue;
      }
      switch (phase) {
        case BEFORE_ARRAY:
          if (c !== OPEN_BRACKET) this.fail(i, 'expected "[" at the start of a JSON array');
          phase = BEFORE_FIRST;
          i++;
          continue;
        case AFTER_ELEMENT:
          if (c === COMMA) phase = BEFORE_NEXT;
          else if (c === CLOSE_BRACKET) phase = AFTER_ARRAY;
          else this.fail(i, `expected "," or "]" after an array element, got ${JSON.stringify(text[i])}`);
          i++;
          continue;
        case AFTER_ARRAY:
          this.fail(i, 'unexpected data after the end of the JSON array');
          break;
        case BEFORE_FIRST:
          if (c === CLOSE_BRACKET) {
            phase = AFTER_ARRAY;
            i++;
            continue;
          }
          break;
        case BEFORE_NEXT:
          if (c === CLOSE_BRACKET || c === COMMA) this.fail(i, `expected an array element after ",", got ${JSON.stringify(text[i])}`);
          break;
      }
      // Start of an element: the loop goes on at the same character, inside the element.
      phase = IN_ELEMENT;
      start = i;
      this.elementLine = this.lineAt(i);
      depth = 0;
      inString = false;
      escaped = false;
    }

    if (phase === IN_ELEMENT && start < n) this.parts.push(start === 0 ? text : text.slice(start));
    this.phase = phase;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.lineAt(n);
    this.text = '';
  }

  end(_out: RawRecord[]): void {
    if (this.phase === AFTER_ARRAY) return;
    const reason =
      this.phase === IN_ELEMENT
        ? `unexpected end of input: the JSON array is truncated (the element starting on line ${this.elementLine} is incomplete)`
        : 'unexpected end of input: the JSON array is not closed with "]"';
    throw new PaperLoadError(reason, this.currentLine, this.file);
  }

  /** Appends the element that ends at `end` of this chunk. */
  private emit(text: string, start: number, end: number, out: RawRecord[]): void {
    let element = text.slice(start, end);
    if (this.parts.length > 0) {
      this.parts.push(element);
      element = this.parts.join('');
      this.parts = [];
    }
    out.push({ text: element, line: this.elementLine });
  }

  /** The line at `position` of the current chunk (positions only move forward within a chunk). */
  private lineAt(position: number): number {
    let newline = this.nextNewline;
    while (newline !== -1 && newline < position) {
      this.currentLine++;
      newline = this.text.indexOf('\n', newline + 1);
    }
    this.nextNewline = newline;
    return this.currentLine;
  }

  private fail(position: number, reason: string): never {
    throw new PaperLoadError(reason, this.lineAt(position), this.file);
  }
}

/** Whether the run of backslashes just before `end` (not going below `from`) has odd length. */
function endsWithOddBackslashes(text: string, end: number, from: number): boolean {
  let k = end - 1;
  while (k >= from && text.charCodeAt(k) === BACKSLASH) k--;
  return ((end - 1 - k) & 1) === 1;
}
