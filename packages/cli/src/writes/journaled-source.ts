import { checkChanges, type PaperChange, type PaperQuery, type SourceCallOptions, type WritableSource, type WriteResult, type Paper } from '@paperlist/core';
import type { IndexedMemorySource } from '@paperlist/core/node';
import type { WriteJournal } from './write-journal.js';

/**
 * The memory source with durable writes: a batch is checked, appended to the journal and
 * flushed, then applied, and only then acknowledged. Reads go straight to the memory source.
 *
 * It also answers the net effect of every batch in the journal (the last paper, or deletion, of
 * each id written, kept by the journal), so a catalogue rebuilt from the `--data` files (at start
 * or on SIGHUP) can have every write applied while it is built.
 */
export class JournaledSource implements WritableSource {
  private appliedSeq = 0;

  constructor(
    private readonly memory: IndexedMemorySource,
    private readonly journal: WriteJournal,
    /** Called after each acknowledged batch (to fold the journal into a snapshot now and then). */
    private readonly onWritten: () => void = () => {},
  ) {}

  list(query: PaperQuery, options?: SourceCallOptions) {
    return this.memory.list(query, options);
  }

  get(id: string) {
    return this.memory.get(id);
  }

  annotations(id: string) {
    return this.memory.annotations(id);
  }

  version(): string {
    return this.memory.version();
  }

  /** The last batch that {@link netChanges} holds. */
  get journalSequence(): number {
    return this.journal.durableSequence;
  }

  /** Every write so far, as the paper (or deletion) each id ends with. A copy. */
  netChanges(): Map<string, Paper | null> {
    return this.journal.netChanges();
  }

  /**
   * The sequence number of a batch such that it and every one before it are in the catalogue
   * served now (a lower bound: replaying batches already applied changes nothing, since each
   * only sets ids to values).
   */
  get applied(): number {
    return this.appliedSeq;
  }

  /** Marks the journal up to `seq` as in the catalogue (after loading it with the writes folded in). */
  markApplied(seq: number): void {
    this.appliedSeq = Math.max(this.appliedSeq, seq);
  }

  async write(changes: readonly PaperChange[]): Promise<WriteResult> {
    checkChanges(changes);
    const seq = await this.journal.append(changes);
    // Appends resolve in sequence order and `write` queues its batch at once: batches reach the
    // catalogue in the journal's order.
    const result = await this.memory.write(changes);
    this.markApplied(seq);
    this.onWritten();
    return result;
  }
}
