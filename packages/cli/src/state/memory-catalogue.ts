import { papersAfterStream, type Paper, type PaperSource, type RecordFormatOption } from '@paperlist/core';
import type { IndexedMemorySource } from '@paperlist/core/node';
import { describeError, oneLine } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import type { CatalogInput } from '../data/inputs.js';
import { loadCatalog } from '../data/load-catalog.js';
import { formatCount, formatDuration } from '../log.js';
import { progressMode } from '../progress.js';
import { JournaledSource } from '../writes/journaled-source.js';
import { WriteJournal, type JournalRecord } from '../writes/write-journal.js';
import { catalogueFingerprints, diffCatalogue, withoutIds, type CatalogueDiff } from './catalogue-diff.js';
import { dataChange, dataFingerprint, sameData, type DataFingerprint } from './data-fingerprint.js';
import type { StateDir } from './state-dir.js';

/** Journal bytes written since the last snapshot that make the next one worth saving. */
const FOLD_JOURNAL_BYTES = 64 * 1024 * 1024;

/** How the catalogue files are read (the options of `serve` that say so). */
export interface CatalogueReading {
  format: RecordFormatOption;
  skipInvalid?: boolean;
}

/**
 * The in-memory catalogue of `paperlist serve` and what keeps it: the files it is built from, and,
 * with a state directory, its snapshots and its write journal. Loads it at start (from the
 * snapshot when the files are unchanged, with the journal's writes applied), reloads it on
 * SIGHUP, and folds the journal into a new snapshot now and then.
 */
export class MemoryCatalogue {
  private journaled: JournaledSource | undefined;
  private journal: WriteJournal | undefined;
  /** The journal's batches as read at start, until they are applied. */
  private journalAtOpen: readonly JournalRecord[] = [];
  /** What the catalogue now served was built from (with a state directory). */
  private data: DataFingerprint | undefined;
  /** The journal's size when the last snapshot was started. */
  private journalBytesAtSave = 0;
  /** The snapshot being written in the background, if any. */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly memory: IndexedMemorySource,
    private readonly stateDir: StateDir | undefined,
    private readonly reading: CatalogueReading,
    private readonly context: CommandContext,
    /** Told the number of papers served whenever it changes. */
    private readonly onPapers: (papers: number) => void,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * The source to serve: the memory source, behind the state directory's write journal when
   * there is one (opened whether writes are on or not: writes taken by an earlier run stay part
   * of the catalogue).
   */
  async open(): Promise<PaperSource> {
    if (this.stateDir === undefined) return this.memory;
    const { log } = this.context;
    const { journal, contents } = await WriteJournal.open(this.stateDir.journalPath);
    if (contents.tornBytes > 0) {
      log.warn(`${journal.path}: dropped ${contents.tornBytes} bytes at its end, a write batch cut off by a crash before it was acknowledged`);
    }
    this.journal = journal;
    this.journalAtOpen = contents.records;
    this.journaled = new JournaledSource(this.memory, journal, () => this.afterWrite());
    return this.journaled;
  }

  /** The write journal's size and last batch on disk, for the metrics. */
  journalState(): { bytes: number; sequence: number } | undefined {
    return this.journal === undefined ? undefined : { bytes: this.journal.bytes, sequence: this.journal.durableSequence };
  }

  /**
   * The first load: from the state directory's snapshot when it was built from the same data
   * (seconds instead of a rebuild), else from the files, then saved there in the background.
   */
  async loadAtStart(inputs: readonly CatalogInput[]): Promise<void> {
    const { log } = this.context;
    const stateDir = this.stateDir;
    if (stateDir === undefined) {
      await this.load(inputs, progressMode(log));
      return;
    }
    // Taken before reading: a file changed while it is read then differs at the next start.
    const data = await dataFingerprint(inputs, this.reading);
    const manifest = await stateDir.manifest();
    this.data = data;
    if (manifest !== undefined && sameData(manifest.data, data)) {
      const started = performance.now();
      try {
        await this.memory.restore(stateDir.snapshotPath(manifest));
        log.info(`loaded ${formatCount(manifest.papers)} papers from the snapshot in ${stateDir.path} (${formatDuration(performance.now() - started)})`);
        await this.replayJournal(manifest.journalApplied ?? 0);
        this.onPapers(this.memory.size);
        return;
      } catch (error) {
        log.warn(`${oneLine(describeError(error).message)}; rebuilding from the catalogue files`);
      }
    } else if (manifest !== undefined) {
      log.info(`not using the snapshot in ${stateDir.path}: ${dataChange(manifest.data, data)} since it was saved; rebuilding`);
    }
    await this.load(inputs, progressMode(log));
    this.saveState(data);
  }

  /**
   * SIGHUP: the files read again and compared with the catalogue served, paper by paper; the
   * difference by id is applied as one write batch (ids the journal has written keep the
   * journal's value). Only when papers come with other tasks or methods is the catalogue rebuilt
   * aside instead. Then saved. Answers the papers served.
   */
  async reload(inputs: readonly CatalogInput[]): Promise<number> {
    const data = this.stateDir === undefined ? undefined : await dataFingerprint(inputs, this.reading);
    const count = (await this.applyDifference(inputs)) ?? (await this.load(inputs, this.progress()));
    if (data !== undefined) {
      this.data = data;
      this.saveState(data);
    }
    return count;
  }

  /** Waits for a snapshot being saved, then closes the journal. */
  async close(): Promise<void> {
    await this.saving;
    await this.journal?.close();
  }

  /** After each acknowledged write: the health check's count, and now and then a snapshot that folds the journal in. */
  private afterWrite(): void {
    this.onPapers(this.memory.size);
    const journal = this.journal!;
    if (this.data !== undefined && journal.bytes - this.journalBytesAtSave >= FOLD_JOURNAL_BYTES) {
      this.journalBytesAtSave = journal.bytes;
      this.saveState(this.data);
    }
  }

  /** Applies the journal's batches after `applied` to the catalogue just restored, as one batch. */
  private async replayJournal(applied: number): Promise<void> {
    const { journaled, journal } = this;
    if (journaled === undefined || journal === undefined || journal.sequence <= applied) return;
    const started = performance.now();
    const pending = this.journalAtOpen.filter((record) => record.seq > applied);
    // Through the memory source itself: these batches are in the journal already.
    await this.memory.write(pending.flatMap((record) => record.changes));
    journaled.markApplied(journal.sequence);
    this.journalAtOpen = [];
    this.context.log.info(`applied ${formatCount(pending.length)} write batches from ${journal.path} (${formatDuration(performance.now() - started)})`);
  }

  /** Writes a snapshot of the catalogue now served to the state directory, after any save still running. */
  private saveState(data: DataFingerprint): void {
    const { stateDir, memory } = this;
    if (stateDir === undefined) return;
    const { log } = this.context;
    this.saving = this.saving.then(async () => {
      const started = performance.now();
      // Read as the save starts: the catalogue it writes holds at least these batches.
      const applied = this.journaled?.applied ?? 0;
      const papers = memory.size;
      try {
        const manifest = await stateDir.save(memory, data, papers, applied);
        log.info(`saved a snapshot of ${formatCount(papers)} papers to ${stateDir.snapshotPath(manifest)} (${formatDuration(performance.now() - started)})`);
      } catch (error) {
        log.warn(`could not save a snapshot to ${stateDir.path} (the next start rebuilds): ${oneLine(describeError(error).message)}`);
      }
    });
  }

  /**
   * Applies the difference between the files and the catalogue served as one write batch, and
   * answers the papers served then; `undefined` when only a rebuild can apply it (see
   * `CatalogueDiff.annotationsChanged`).
   */
  private async applyDifference(inputs: readonly CatalogInput[]): Promise<number | undefined> {
    const { log } = this.context;
    const started = performance.now();
    const current = await catalogueFingerprints(this.memory, this.signal);
    let diff: CatalogueDiff | undefined;
    await loadCatalog(inputs, this.loadOptions(this.progress()), async (stream, annotations) => {
      diff = await diffCatalogue(stream, annotations, current);
    });
    if (diff === undefined) throw new Error('paperlist: the catalogue files were not read');
    if (diff.annotationsChanged) {
      log.info('papers come with other tasks or methods than they have: rebuilding the catalogue instead of applying the difference');
      return undefined;
    }
    const written = this.journaled?.netChanges();
    // Taken just before the batch is queued: a write acknowledged later is applied after it.
    const changes = written === undefined ? diff.changes : withoutIds(diff.changes, written);
    const result = changes.length === 0 ? { created: 0, updated: 0, deleted: 0 } : await this.memory.write(changes);
    log.info(
      `applied the difference to the files: ${formatCount(result.created)} new, ${formatCount(result.updated)} changed, ` +
        `${formatCount(result.deleted)} removed (${formatDuration(performance.now() - started)})`,
    );
    this.onPapers(this.memory.size);
    return this.memory.size;
  }

  private progress(): ReturnType<typeof progressMode> {
    return this.context.log.quiet ? 'none' : 'plain';
  }

  private loadOptions(progress: ReturnType<typeof progressMode>): Parameters<typeof loadCatalog>[1] {
    return {
      log: this.context.log,
      progress,
      format: this.reading.format,
      ...(this.reading.skipInvalid === undefined ? {} : { skipInvalid: this.reading.skipInvalid }),
      signal: this.signal,
    };
  }

  /** Loads the files into the memory source: built aside, then swapped in at once. */
  private async load(inputs: readonly CatalogInput[], progress: ReturnType<typeof progressMode>): Promise<number> {
    const { log } = this.context;
    const memory = this.memory;
    const journaled = this.journaled;
    // Writes acknowledged later are applied by the memory source after this replacement.
    const writtenUpTo = journaled?.journalSequence ?? 0;
    const written: Map<string, Paper | null> | undefined = journaled?.netChanges();
    let indexing = 0;
    const { papers } = await loadCatalog(
      inputs,
      this.loadOptions(progress),
      // Papers are indexed as they are read, with every write of the journal applied on the way;
      // the new catalogue replaces the current one at the end.
      (stream, annotations) =>
        memory.replaceFrom(
          (async function* timed() {
            yield* written === undefined ? stream : papersAfterStream(stream, written);
            indexing = performance.now();
          })(),
          { annotations },
        ),
    );
    if (journaled !== undefined) journaled.markApplied(writtenUpTo);
    const elapsed = performance.now() - indexing;
    if (elapsed >= 500) log.info(`indexed ${formatCount(papers)} papers (${formatDuration(elapsed)} to finish the index)`);
    this.onPapers(memory.size);
    return memory.size;
  }
}
