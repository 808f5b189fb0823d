import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the thread that accepts connections each of paperlist's threads runs
 * (a nice increment, Linux). On two cores, four busy query threads and a merge would otherwise
 * get as much CPU as the event loop, and `/healthz` or a cheap request would wait behind them
 * for the scheduler; with these, the event loop (weight 1024) wins a core from a query thread
 * (335) about three times in four, and a background merge (weight 15) gives way to everything.
 */
export const THREAD_NICE = {
  /** Query threads: below the event loop, so I/O and routing are never starved by queries. */
  query: 5,
  /** A catalogue built while the old one serves (a reload; its building and tokenizing threads): below the queries it must not slow. */
  build: 10,
  /** Write batches' small indexes: as the queries, since a write waits for its delta. */
  delta: 5,
  /** Background merges of segments: whenever nothing else wants the core. */
  merge: 19,
} as const;

/** The role of a thread, for `THREAD_NICE`. */
export type ThreadRole = keyof typeof THREAD_NICE;

/**
 * Lowers the priority of the calling thread (and only it) by `THREAD_NICE[role]`, relative to
 * what it inherited. Linux keeps a nice value per thread, and `setpriority` given a thread id
 * changes that thread alone; elsewhere the same call would renice the whole process, so other
 * platforms are left alone. `PAPERLIST_THREAD_PRIORITIES=off` turns it off (for example to
 * compare). Never throws: a thread that cannot be reniced runs as before.
 * @returns whether the priority was changed
 */
export function lowerThreadPriority(role: ThreadRole): boolean {
  const increment = THREAD_NICE[role];
  if (process.platform !== 'linux' || !(increment > 0) || process.env['PAPERLIST_THREAD_PRIORITIES'] === 'off') return false;
  try {
    // `/proc/thread-self` links to `/proc/<pid>/task/<tid>`: the calling thread's own id.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, getPriority(tid) + increment));
    return true;
  } catch {
    return false;
  }
}
