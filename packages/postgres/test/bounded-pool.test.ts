import { describe, expect, it } from 'vitest';
import { SourceOverloadedError } from '@paperlist/core';
import { ConnectionGate } from '../src/bounded-pool.js';
import type { RunningCall } from '../src/statement-timeout.js';

/** A call that started `ageMs` ago and records why it was shed. */
function call(ageMs: number): RunningCall & { reasons: Error[] } {
  const reasons: Error[] = [];
  return { startedAt: performance.now() - ageMs, reasons, shed: (reason) => void reasons.push(reason) };
}

describe('ConnectionGate', () => {
  it('admits up to `concurrent`, queues up to `queued`, refuses one more at once', async () => {
    const gate = new ConnectionGate({ concurrent: 1, queued: 1, waitMs: 60_000 });
    const leave = await gate.enter(undefined);
    const waiting = gate.enter(undefined);
    await expect(gate.enter(undefined)).rejects.toBeInstanceOf(SourceOverloadedError);
    expect(gate.load).toEqual({ active: 1, waiting: 1 });
    leave();
    (await waiting)();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it.each([
    // [holders' ages (ms), shedAfterMs, waiters, which holders are shed]
    [[5_000, 9_000], 1_000, 1, [false, true]],
    [[5_000, 9_000], 1_000, 2, [true, true]],
    [[5_000, 9_000], 60_000, 1, [false, false]],
    [[5_000, 9_000], undefined, 2, [false, false]],
    [[5_000], 0, 1, [true]],
  ] as const)('holders aged %j, shedAfterMs %s, %i waiting: shed %j (oldest first, one per waiter)', async (ages, shedAfterMs, waiters, shed) => {
    const gate = new ConnectionGate({ concurrent: ages.length, queued: 5, waitMs: 60_000, shedAfterMs });
    const calls = ages.map((age) => call(age));
    const leaves = await Promise.all(calls.map((c) => gate.enter(undefined, c)));
    const waiting = Array.from({ length: waiters }, () => gate.enter(undefined, call(0)));
    expect(calls.map((c) => c.reasons.length > 0)).toEqual(shed);
    for (const c of calls) for (const reason of c.reasons) expect(reason).toBeInstanceOf(SourceOverloadedError);
    // A shed call gives its connection back (its statement cancelled): the oldest waiter gets it.
    calls.forEach((c, i) => {
      if (c.reasons.length > 0) leaves[i]!();
    });
    const admitted = waiting.slice(0, shed.filter(Boolean).length);
    for (const leave of await Promise.all(admitted)) leave();
    calls.forEach((c, i) => {
      if (c.reasons.length === 0) leaves[i]!();
    });
    for (const leave of await Promise.all(waiting.slice(admitted.length))) leave();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('never sheds a statement outside a call (the background version read)', async () => {
    const gate = new ConnectionGate({ concurrent: 1, queued: 1, waitMs: 60_000, shedAfterMs: 0 });
    const leave = await gate.enter(undefined);
    const waiting = gate.enter(undefined, call(0));
    expect(gate.load).toEqual({ active: 1, waiting: 1 });
    leave();
    (await waiting)();
  });
});
