import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperChange } from '@paperlist/core';
import { WriteJournal } from '../src/writes/write-journal.js';
import { batchChanges } from './fixtures/journal-batches.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paperlist-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('WriteJournal', () => {
  it('reads back every batch appended, in order, across reopenings', async () => {
    const path = join(dir, 'journal.log');
    const first = await WriteJournal.open(path);
    expect(first.contents).toEqual({ records: [], tornBytes: 0 });
    const seqs = await Promise.all([0, 1, 2, 3].map((n) => first.journal.append(batchChanges(n))));
    expect(seqs).toEqual([1, 2, 3, 4]);
    await first.journal.close();
    const second = await WriteJournal.open(path);
    expect(second.contents.records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(second.contents.records.map((r) => r.changes)).toEqual([0, 1, 2, 3].map(batchChanges));
    expect(await second.journal.append(batchChanges(4))).toBe(5);
    await second.journal.close();
    const third = await WriteJournal.open(path);
    expect(third.contents.records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    await third.journal.close();
  });

  it('cuts a record left incomplete or damaged at the end, keeping every complete one before it', async () => {
    const path = join(dir, 'journal.log');
    const { journal } = await WriteJournal.open(path);
    for (let n = 0; n < 6; n++) await journal.append(batchChanges(n));
    await journal.close();
    const whole = await readFile(path);
    const ends = await recordEnds(path);
    // Every cut point: inside the magic, on a record boundary, inside a header, inside a payload.
    const cuts = [3, ends[0]!, ends[2]! + 5, ends[3]! + 20, Math.floor((ends[4]! + ends[5]!) / 2), whole.length - 1];
    for (const cut of cuts) {
      await writeFile(path, whole.subarray(0, cut));
      const { journal: reopened, contents } = await WriteJournal.open(path);
      const complete = ends.filter((end) => end <= cut).length;
      expect(contents.records.map((r) => r.seq), `cut at ${cut}`).toEqual(Array.from({ length: complete }, (_, i) => i + 1));
      // A journal cut inside its first bytes starts again; otherwise the bytes after the last complete record go.
      const kept = complete > 0 ? ends[complete - 1]! : cut < MAGIC_LENGTH ? 0 : MAGIC_LENGTH;
      expect(contents.tornBytes, `cut at ${cut}`).toBe(cut - kept);
      // The next batch follows the last complete one, and the file reads back cleanly.
      expect(await reopened.append(batchChanges(99))).toBe(complete + 1);
      await reopened.close();
      const again = await WriteJournal.open(path);
      expect(again.contents.records.map((r) => r.seq)).toEqual(Array.from({ length: complete + 1 }, (_, i) => i + 1));
      expect(again.contents.tornBytes).toBe(0);
      await again.journal.close();
    }
    // A flipped byte in the last record's payload: that record goes, the others stay.
    const damaged = Buffer.from(whole);
    damaged[ends[4]! + 30]! ^= 0xff;
    await writeFile(path, damaged);
    const { journal: reopened, contents } = await WriteJournal.open(path);
    expect(contents.records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    await reopened.close();
  });

  it('compacts itself into the net effect of its batches once it has grown, and reads back the same', async () => {
    const path = join(dir, 'journal.log');
    const { journal } = await WriteJournal.open(path, { compactAtBytes: 20_000 });
    const first = batchChanges(1).find((change) => change.op === 'upsert');
    if (first?.op !== 'upsert') throw new Error('the fixture batch has an upsert');
    const template = first.paper;
    // The same 20 ids rewritten again and again, some deleted: the net effect stays small.
    const expected = new Map<string, string | null>();
    let largest = 0;
    for (let n = 0; n < 300; n++) {
      const id = `p-${n % 20}`;
      const change: PaperChange = n % 7 === 0 ? { op: 'delete', id } : { op: 'upsert', paper: { ...template, id, title: `version ${n}` } };
      await journal.append([change]);
      expected.set(id, change.op === 'delete' ? null : change.paper.title);
      largest = Math.max(largest, (await stat(path)).size);
    }
    expect(journal.durableSequence).toBe(300);
    await journal.close();
    expect(largest).toBeLessThan(60_000);
    const { journal: reopened, contents } = await WriteJournal.open(path, { compactAtBytes: 20_000 });
    expect(contents.tornBytes).toBe(0);
    expect(contents.records.at(-1)!.seq).toBe(300);
    const net = reopened.netChanges();
    expect(new Map([...net].map(([id, paper]) => [id, paper === null ? null : paper.title]))).toEqual(expected);
    expect(await reopened.append(batchChanges(5))).toBe(301);
    await reopened.close();
  });

  it('refuses a file that is not a journal, naming it', async () => {
    const path = join(dir, 'journal.log');
    await writeFile(path, '{"not":"a journal"}\n');
    await expect(WriteJournal.open(path)).rejects.toThrow(`${path} is not a paperlist write journal`);
  });

  it('loses no acknowledged batch and keeps no partial one when its process is killed at random moments', { timeout: 120_000 }, async () => {
    const path = join(dir, 'journal.log');
    const acknowledged = new Map<number, number>(); // seq → batch number
    let nextBatch = 0;
    const random = seeded(20261125);
    for (let round = 0; round < 8; round++) {
      // Every other round compacts as it goes (a small threshold), so kills land in compactions too.
      const { acks, lastBatch } = await runWriterUntilKilled(path, nextBatch, 80 + Math.floor(random() * 400), round % 2 === 1 ? 200_000 : undefined);
      for (const [seq, n] of acks) acknowledged.set(seq, n);
      nextBatch = lastBatch + 1;
      const { journal, contents } = await WriteJournal.open(path);
      await journal.close();
      // What every acknowledged batch wrote is there: its papers as it left them, unless a later
      // acknowledged batch changed them (the journal may have been compacted into its net effect).
      const net = netOf(contents.records.flatMap((record) => record.changes));
      const expected = netOf([...acknowledged].sort((a, b) => a[0] - b[0]).flatMap(([, n]) => batchChanges(n)));
      for (const [id, paper] of expected) {
        expect(net.has(id), `acknowledged id ${id} after round ${round}`).toBe(true);
        // A batch written after the acknowledged ones (sent but not acknowledged) may have changed it since.
        if (JSON.stringify(net.get(id)) !== JSON.stringify(paper)) expect(laterBatchTouches(id, acknowledged), `id ${id} after round ${round}`).toBe(true);
      }
      // Every record after the first (which may be a compaction of all before it) is one whole batch the writer sent.
      for (const record of contents.records.slice(1)) expect(record.changes).toEqual(batchChanges(batchNumberOf(record.changes)));
    }
    expect(acknowledged.size).toBeGreaterThan(50);
  });
});

/** The net effect of changes in order: each id's last paper, or null when deleted. */
function netOf(changes: readonly PaperChange[]): Map<string, unknown> {
  const net = new Map<string, unknown>();
  for (const change of changes) {
    if (change.op === 'upsert') net.set(change.paper.id, change.paper);
    else net.set(change.id, null);
  }
  return net;
}

/** Whether a batch numbered after every acknowledged one that touches `id` may have been written (unacknowledged). */
function laterBatchTouches(id: string, acknowledged: ReadonlyMap<number, number>): boolean {
  const n = Number(id.split('-')[1]);
  // Batch n writes paper-n-*, batch n + 1 may delete paper-n-*: only those two touch an id.
  const numbers = new Set(acknowledged.values());
  return !numbers.has(n + 1);
}

/** The writer's batch number, from the ids it wrote. */
function batchNumberOf(changes: readonly { op: string; paper?: { id: string }; id?: string }[]): number {
  const change = changes.find((c) => c.op === 'upsert') ?? changes[0]!;
  const id = change.op === 'upsert' ? change.paper!.id : change.id!;
  const n = Number(id.split('-')[1]);
  return change.op === 'upsert' ? n : n + 1;
}

/** Where each record ends in the journal at `path` (by reading it with growing cuts). */
async function recordEnds(path: string): Promise<number[]> {
  const whole = await readFile(path);
  const ends: number[] = [];
  let at = MAGIC_LENGTH;
  while (at < whole.length) {
    at += 16 + whole.readUInt32LE(at);
    ends.push(at);
  }
  expect(at).toBe((await stat(path)).size);
  return ends;
}

const MAGIC_LENGTH = 'paperlist-journal-1\n'.length;
const FIXTURE = fileURLToPath(new URL('./fixtures/journal-writer.ts', import.meta.url));

/** Runs the writer process on `path`, kills it with SIGKILL `afterMs` after it is ready, and answers its acknowledgements. */
async function runWriterUntilKilled(path: string, firstBatch: number, afterMs: number, compactAtBytes?: number): Promise<{ acks: Map<number, number>; lastBatch: number }> {
  const args = [FIXTURE, path, String(firstBatch), ...(compactAtBytes === undefined ? [] : [String(compactAtBytes)])];
  const child = spawn(process.execPath, ['--conditions=@paperlist/source', '--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acks = new Map<number, number>();
  let lastBatch = firstBatch;
  let buffered = '';
  let ready: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line === 'ready') ready();
      const match = /^ack (\d+) (\d+)$/.exec(line);
      if (match) {
        acks.set(Number(match[1]), Number(match[2]));
        lastBatch = Math.max(lastBatch, Number(match[2]));
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await isReady;
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  child.kill('SIGKILL');
  await exited;
  // Batches handed out but never acknowledged may or may not be on disk; numbers go on past them.
  return { acks, lastBatch: lastBatch + 16 };
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

