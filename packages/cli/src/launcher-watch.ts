import { readFileSync } from 'node:fs';

/** How often the launcher chain is checked. */
const CHECK_MS = 500;

/**
 * Calls `onGone` once when a process that launched this one exits.
 *
 * `npx pnpm start` runs paperlist four processes down (npm exec → sh → pnpm → sh → pnpm → sh →
 * node). A SIGTERM sent to the `npx` process ends it and its shell, but the pnpm below is only
 * orphaned and never told, so the server would run on with nobody to stop it. Under a package
 * manager, the server therefore watches its ancestors and stops gracefully, as on SIGTERM, when
 * one of them is gone. Linux only (it reads `/proc`); elsewhere, and when not started by a
 * package manager, it does nothing. Returns a function that stops watching.
 */
export function watchLauncher(onGone: (pid: number) => void, env: NodeJS.ProcessEnv = process.env): () => void {
  if (env['npm_lifecycle_event'] === undefined || process.platform !== 'linux') return () => {};
  const chain = ancestors(process.pid);
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    for (const { pid, parent } of chain) {
      if (parentOf(pid) !== parent) {
        clearInterval(timer);
        onGone(pid);
        return;
      }
    }
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The ancestors of `pid` below init, each with its parent, nearest first. */
function ancestors(pid: number): { pid: number; parent: number }[] {
  const chain: { pid: number; parent: number }[] = [];
  for (let at = parentOf(pid); at !== undefined && at > 1 && chain.length < 32; ) {
    const parent = parentOf(at);
    if (parent === undefined) break;
    chain.push({ pid: at, parent });
    at = parent;
  }
  return chain;
}

/** The parent of `pid` from `/proc/<pid>/stat`, or `undefined` when it no longer exists. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ppid …": the command may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}
