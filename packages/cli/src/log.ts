import pino from 'pino';

/** How messages are written: lines for people, or JSON objects (pino's) for log collectors. */
export type LogFormat = 'text' | 'json';

/**
 * Where the CLI writes its messages: stderr, one line each, prefixed with the program name; or,
 * with the `json` format, one pino JSON object each (`level`, `time`, `msg`).
 */
export interface Logger {
  /** Progress and status lines; silenced by `--quiet`. */
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Details shown with `--verbose` only (stack traces). */
  debug(message: string): void;
  readonly verbose: boolean;
  readonly quiet: boolean;
  readonly format: LogFormat;
  /** The stream the lines go to. */
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface LoggerOptions {
  /** The name lines start with: `paperlist`. */
  prefix?: string;
  quiet?: boolean;
  verbose?: boolean;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  format?: LogFormat;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const { prefix = 'paperlist', quiet = false, verbose = false, stream = process.stderr, format = 'text' } = options;
  if (format === 'json') return jsonLogger(prefix, quiet, verbose, stream);
  const write = (line: string) => stream.write(`${prefix}: ${line}\n`);
  return {
    verbose,
    quiet,
    format,
    stream,
    info: (message) => {
      if (!quiet) write(message);
    },
    warn: (message) => write(`warning: ${message}`),
    error: (message) => write(`error: ${message}`),
    debug: (message) => {
      if (verbose) for (const line of message.split('\n')) write(line);
    },
  };
}

function jsonLogger(name: string, quiet: boolean, verbose: boolean, stream: NodeJS.WritableStream & { isTTY?: boolean }): Logger {
  const logger = jsonLines(stream, { name, level: verbose ? 'debug' : 'info' });
  return {
    verbose,
    quiet,
    format: 'json',
    stream,
    info: (message) => {
      if (!quiet) logger.info(message);
    },
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
    debug: (message) => logger.debug(message),
  };
}

/** A pino logger writing JSON lines with ISO times to `stream` (synchronously: nothing is lost at exit). */
export function jsonLines(stream: NodeJS.WritableStream, options: { name: string; level?: string }): pino.Logger {
  return pino({ name: options.name, level: options.level ?? 'info', base: { name: options.name }, timestamp: pino.stdTimeFunctions.isoTime }, stream);
}

/** `1,234,567` */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `1.2s`, `250ms`, `2m05s` */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** `96.3 MB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `1 record`, `2 records`, `1,000 records` */
export function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
