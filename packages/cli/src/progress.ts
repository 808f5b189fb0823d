import cliProgress from 'cli-progress';
import type { FilesProgress } from './data/read-files.js';
import type { CatalogInput } from './data/inputs.js';
import { formatBytes, formatCount, formatDuration, type Logger } from './log.js';

/** `bar`: a progress bar (stderr is a terminal); `plain`: log lines; `none`: quiet. */
export type ProgressMode = 'bar' | 'plain' | 'none';

/** A bar on a terminal, plain lines otherwise, nothing when quiet. */
export function progressMode(log: Logger): ProgressMode {
  if (log.quiet) return 'none';
  // A bar redraws its line: never inside JSON logs.
  if (log.format === 'json') return 'plain';
  return log.stream.isTTY === true ? 'bar' : 'plain';
}

/** Seconds between plain progress lines, at most (a line is also written at each tenth of the input). */
const PLAIN_INTERVAL_MS = 5_000;

/**
 * Shows the progress of loading catalogue files: papers, papers per second, and an ETA from the
 * (compressed) bytes read against the files' sizes.
 */
export class CatalogProgress {
  private bar: cliProgress.SingleBar | undefined;
  private readonly started = performance.now();
  private lastLine = 0;
  private lastDecile = 0;
  private records = 0;

  constructor(
    private readonly mode: ProgressMode,
    private readonly log: Logger,
    private readonly inputs: readonly CatalogInput[],
    /** What is done: `loading` or `importing`. */
    private readonly verb = 'loading',
  ) {}

  private get totalBytes(): number {
    return this.inputs.reduce((sum, input) => sum + input.size, 0);
  }

  fileStart(input: CatalogInput, index: number): void {
    const of = this.inputs.length > 1 ? ` (file ${index + 1} of ${this.inputs.length})` : '';
    if (this.mode === 'plain') {
      this.log.info(`${this.verb} ${input.name}${of}: ${formatBytes(input.size)}${input.kind === 'parquet' ? ', Parquet' : ''}`);
      this.lastLine = performance.now();
    } else if (this.mode === 'bar') {
      if (this.bar === undefined) {
        this.bar = new cliProgress.SingleBar(
          {
            stream: this.log.stream,
            format: `${capitalize(this.verb)} {file} [{bar}] {percentage}% | {papers} papers | {rate} papers/s | ETA {eta_formatted}`,
            barsize: 24,
            hideCursor: true,
            etaBuffer: 40,
            fps: 8,
            // Our own handlers stop the bar on signals.
            gracefulExit: false,
          },
          cliProgress.Presets.shades_classic,
        );
        this.bar.start(Math.max(1, this.totalBytes), 0, { file: input.name, papers: '0', rate: '0' });
      } else {
        this.bar.update({ file: input.name });
      }
    }
  }

  update(progress: FilesProgress): void {
    this.records = progress.records;
    const elapsed = performance.now() - this.started;
    const rate = elapsed > 0 ? (progress.records * 1000) / elapsed : 0;
    if (this.mode === 'bar') {
      this.bar?.update(Math.min(progress.bytes, this.totalBytes), {
        file: progress.input.name,
        papers: formatCount(progress.records),
        rate: formatCount(rate),
      });
      return;
    }
    if (this.mode !== 'plain') return;
    const fraction = this.totalBytes > 0 ? Math.min(1, progress.bytes / this.totalBytes) : 1;
    const decile = Math.floor(fraction * 10);
    const now = performance.now();
    if (decile <= this.lastDecile && now - this.lastLine < PLAIN_INTERVAL_MS) return;
    if (fraction >= 1) return; // the end is reported by fileEnd()
    this.lastDecile = decile;
    this.lastLine = now;
    const eta = fraction > 0 ? (elapsed * (1 - fraction)) / fraction : undefined;
    this.log.info(
      `${this.verb} ${progress.input.name}: ${formatCount(progress.records)} papers, ${Math.floor(fraction * 100)}% read, ` +
        `${formatCount(rate)} papers/s${eta === undefined ? '' : `, ETA ${formatDuration(eta)}`}`,
    );
  }

  fileEnd(input: CatalogInput, stats: { records: number; skipped: number }): void {
    if (this.mode !== 'plain' || this.inputs.length < 2) return;
    this.log.info(`${input.name}: ${formatCount(stats.records)} papers${stats.skipped > 0 ? `, ${formatCount(stats.skipped)} invalid skipped` : ''}`);
  }

  /** Ends the display and logs a summary line. */
  finish(summary: { records: number; skipped: number }, what = 'loaded'): void {
    this.records = summary.records;
    this.stopBar(true);
    const elapsed = performance.now() - this.started;
    const from = this.inputs.length === 1 ? this.inputs[0]!.name : `${this.inputs.length} files`;
    const rate = elapsed > 0 ? ` (${formatCount((summary.records * 1000) / elapsed)} papers/s)` : '';
    const skipped = summary.skipped > 0 ? `; skipped ${formatCount(summary.skipped)} invalid records` : '';
    this.log.info(`${what} ${formatCount(summary.records)} papers from ${from} in ${formatDuration(elapsed)}${rate}${skipped}`);
  }

  /** Logs a warning without garbling the bar (it is redrawn on its next update). */
  warn(message: string): void {
    if (this.bar !== undefined) this.log.stream.write('\r\x1b[2K');
    this.log.warn(message);
  }

  /** Ends the display after a failure or an interruption. */
  abort(): void {
    this.stopBar(false);
  }

  private stopBar(complete: boolean): void {
    if (this.bar === undefined) return;
    if (complete) this.bar.update(this.totalBytes, { papers: formatCount(this.records) });
    this.bar.stop();
    this.bar = undefined;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
