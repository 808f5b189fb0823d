import { describe, expect, it } from 'vitest';
import { MergeGate, passMergeGate } from '../src/threads/merge-gate.js';

describe('the merge gate', () => {
  it('lets a merge pass at once while no write holds it', () => {
    const gate = new MergeGate();
    const started = performance.now();
    passMergeGate(new Int32Array(gate.buffer), 5_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('is held while any write is under way, and let go when the last one settles, failed or not', async () => {
    const gate = new MergeGate();
    const held = new Int32Array(gate.buffer);
    let endFirst!: () => void;
    let failSecond!: (error: Error) => void;
    const first = gate.hold(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = gate.hold(() => new Promise<void>((_resolve, reject) => (failSecond = reject)));
    expect(Atomics.load(held, 0)).toBe(2);
    endFirst();
    await first;
    expect(Atomics.load(held, 0)).toBe(1);
    failSecond(new Error('refused'));
    await expect(second).rejects.toThrow('refused');
    expect(Atomics.load(held, 0)).toBe(0);
  });

  it('answers what the write answers', async () => {
    await expect(new MergeGate().hold(async () => 42)).resolves.toBe(42);
  });

  it('holds a merge back at most the limit when a write never lets go', () => {
    const gate = new MergeGate();
    void gate.hold(() => new Promise<void>(() => {}));
    const started = performance.now();
    passMergeGate(new Int32Array(gate.buffer), 60);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});
