import { PaperLoadError } from '../load/paper-load-error.js';
import type { LoadProblem } from '../load/types.js';
import type { Paper } from '../paper.js';
import { validatePaper } from '../paper-schema.js';
import { pwcRecordToPaper, type PwcRecordValidation } from './pwc-record.js';
import type { PaperAnnotations } from '../annotations/annotations.js';
import { detectRecordFormat, type RecordFormat, type RecordFormatOption } from './record-format.js';

const MAX_INPUTS = 4096;

/**
 * The ids seen so far and where (input and line), compactly: one number per id. Share one registry
 * between the acceptors of several files to reject ids that repeat across files.
 */
export class IdRegistry {
  private readonly inputs: { file: string | undefined; unit: string }[] = [];
  private readonly ids = new Map<string, number>();

  /** Number of ids. */
  get size(): number {
    return this.ids.size;
  }

  /** Registers an input and returns its index. */
  addInput(file: string | undefined, unit: string): number {
    if (this.inputs.length >= MAX_INPUTS) throw new RangeError(`paperlist: at most ${MAX_INPUTS} inputs can share ids`);
    this.inputs.push({ file, unit });
    return this.inputs.length - 1;
  }

  /**
   * Records `id` at `line` of input `input` and returns `undefined`, or, when the id was seen
   * before, leaves it and returns where it was first seen, as words (`on line 3`, `in a.jsonl line 3`).
   */
  add(id: string, input: number, line: number): string | undefined {
    const first = this.ids.get(id);
    if (first === undefined) {
      this.ids.set(id, line * MAX_INPUTS + input);
      return undefined;
    }
    const firstInput = first % MAX_INPUTS;
    const firstLine = (first - firstInput) / MAX_INPUTS;
    const where = this.inputs[firstInput]!;
    return firstInput === input
      ? `on ${where.unit} ${firstLine}`
      : `in ${where.file ?? `input ${firstInput + 1}`} ${where.unit} ${firstLine}`;
  }
}

/** Options of {@link createPaperAcceptor}. */
export interface PaperAcceptorOptions {
  /** The record format, or `auto` (the default) to tell it by the keys of the first record. */
  format?: RecordFormatOption;
  /** Name of the input in errors. */
  file?: string | undefined;
  /** What a record's position is called in errors: `line` (text files, the default) or `row` (Parquet). */
  unit?: 'line' | 'row';
  /** Skip bad records (calling `onInvalid`) instead of throwing a {@link PaperLoadError} on the first one. */
  skipInvalid?: boolean;
  onInvalid?: ((problem: LoadProblem) => void) | undefined;
  /**
   * Ids seen so far. Share one registry between the acceptors of several files to reject ids that
   * repeat across files; by default each acceptor has its own.
   */
  ids?: IdRegistry;
  /** Called once, when the format is known (after the first record when `auto`). */
  onFormat?: ((format: RecordFormat) => void) | undefined;
  /**
   * Where to keep the `tasks` and `methods` of Papers with Code records, by paper id (only
   * papers that have any, and only accepted ones). Left alone for paperlist records.
   */
  annotations?: Map<string, PaperAnnotations> | undefined;
}

/** Turns parsed records into validated papers: see {@link createPaperAcceptor}. */
export interface PaperAcceptor {
  /** The record format: the one asked for, or the one detected; `undefined` before the first record in `auto` mode. */
  readonly format: RecordFormat | undefined;
  /**
   * Converts (for PwC records) and validates the record at `line` and checks that its id is new.
   * Returns the paper, or `undefined` for a record skipped because of `skipInvalid`.
   * @throws {PaperLoadError} for a bad record without `skipInvalid`.
   */
  accept(value: unknown, line: number, where?: string): Paper | undefined;
  /** Reports a problem that is not about one parsed record (such as invalid JSON) like a bad record. */
  reject(line: number, reason: string): undefined;
}

/**
 * The record checks shared by every catalogue reader (JSON, Parquet): format detection, the
 * PwC conversion, validation and unique ids, with errors that name the file and line.
 *
 * @example
 * const acceptor = createPaperAcceptor({ format: 'auto', file: 'papers.json' });
 * const paper = acceptor.accept(JSON.parse(text), line);
 */
export function createPaperAcceptor(options: PaperAcceptorOptions = {}): PaperAcceptor {
  const { file, unit = 'line', skipInvalid = false, onInvalid, onFormat } = options;
  const ids = options.ids ?? new IdRegistry();
  const input = ids.addInput(file, unit);
  let format: RecordFormat | undefined = options.format === 'auto' || options.format === undefined ? undefined : options.format;
  let convert: ((value: unknown) => PwcRecordValidation) | undefined;
  if (format !== undefined) {
    convert = format === 'pwc' ? pwcRecordToPaper : validatePaper;
    onFormat?.(format);
  }

  const reject = (line: number, reason: string): undefined => {
    if (!skipInvalid) {
      const error = new PaperLoadError(reason, line, file);
      if (unit !== 'line') error.message = `${file === undefined ? '' : `${file} `}${unit} ${line}: ${reason}`;
      throw error;
    }
    onInvalid?.({ line, reason });
    return undefined;
  };

  return {
    get format() {
      return format;
    },
    reject,
    accept(value, line, where) {
      if (convert === undefined) {
        format = detectRecordFormat(typeof value === 'object' && value !== null ? Object.keys(value) : []);
        convert = format === 'pwc' ? pwcRecordToPaper : validatePaper;
        onFormat?.(format);
      }
      const result = convert(value);
      const prefix = where === undefined ? '' : `${where}: `;
      if (!result.ok) return reject(line, prefix + result.reason);
      const { id } = result.paper;
      const firstSeen = ids.add(id, input, line);
      if (firstSeen !== undefined) return reject(line, `${prefix}duplicate id ${JSON.stringify(id)} (first seen ${firstSeen})`);
      if ('annotations' in result && result.annotations !== undefined) options.annotations?.set(id, result.annotations);
      return result.paper;
    },
  };
}
