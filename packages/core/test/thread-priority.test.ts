import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { queryFor } from '@paperlist/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySource } from '../src/node/index.js';
import type { IndexedMemorySource } from '../src/node/index.js';
import { THREAD_NICE } from '../src/threads/thread-priority.js';
import { makePaper } from './make-paper.js';

/** The nice value of every thread of this process, by thread id (field 19 of `/proc/<pid>/task/<tid>/stat`). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces), from field 3 on: nice is field 19.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nices.set(Number(tid), Number(fields[16]));
    } catch {
      // A thread that ended while being listed.
    }
  }
  return nices;
}

const papers = Array.from({ length: 40 }, (_, i) => makePaper({ id: `p${i}`, title: `paper ${i} about graphs` }));

describe.runIf(process.platform === 'linux')('thread priorities (Linux)', () => {
  const opened: IndexedMemorySource[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((source) => source.close()));
    delete process.env['PAPERLIST_THREAD_PRIORITIES'];
  });
  const own = () => getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()));

  /** The nice values of the threads a source with two query threads adds, once both have answered. */
  const startedThreadNices = async (): Promise<number[]> => {
    const before = threadNices();
    const source = createMemorySource(papers, { threads: 2 });
    opened.push(source);
    // An answer from each thread: both have started and set their priority.
    await Promise.all([source.list(queryFor('q=graphs', 0, 5)), source.list(queryFor('q=paper', 0, 5))]);
    return [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
  };

  it('runs the query threads below the calling thread, which keeps its own priority', async () => {
    const base = own();
    const added = await startedThreadNices();
    expect(own()).toBe(base);
    expect(added.filter((nice) => nice === Math.min(19, base + THREAD_NICE.query)).length).toBeGreaterThanOrEqual(2);
  });

  it('leaves every thread at the inherited priority with PAPERLIST_THREAD_PRIORITIES=off', async () => {
    process.env['PAPERLIST_THREAD_PRIORITIES'] = 'off';
    const base = own();
    const added = await startedThreadNices();
    expect(added.length).toBeGreaterThanOrEqual(2);
    expect(added.every((nice) => nice === base)).toBe(true);
  });
});
