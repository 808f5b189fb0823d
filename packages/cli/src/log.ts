/** Where the CLI writes its messages: stderr, one line each, prefixed with the program name. */
export interface Logger {
  /** Progress and status lines; silenced by `--quiet`. */
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Details shown with `--verbose` only (stack traces). */
  debug(message: string): void;
  readonly verbose: boolean;
  readonly quiet: boolean;
  /** The stream the lines go to. */
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface LoggerOptions {
  /** The name lines start with: `paperlist`. */
  prefix?: string;
  quiet?: boolean;
  verbose?: boolean;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const { prefix = 'paperlist', quiet = false, verbose = false, stream = process.stderr } = options;
  const write = (line: string) => stream.write(`${prefix}: ${line}\n`);
  return {
    verbose,
    quiet,
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
