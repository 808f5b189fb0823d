import { readFileSync } from 'node:fs';

/** How often the launcher chain is checked. */
const CHECK_MS = 500;
/** A tick this late means this process was stopped (Ctrl-Z) or blocked: its readings are stale. */
const LATE_MS = CHECK_MS * 3;
/** Shell wake-ups this soon after this process was continued come from the same Ctrl-Z and `fg`. */
const AFTER_CONTINUE_MS = 2_000;
/** The shells that package managers run scripts with. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'zsh', 'busybox']);

/** What {@link watchLauncher} reports. */
export interface LauncherEvents {
  /** A process that launched this one exited (SIGTERM to `npx`: its shell dies and pnpm is orphaned). */
  onGone(pid: number): void;
  /**
   * A launcher's shell received a signal it holds until its child exits (SIGINT to `npx`: npm forwards
   * it to `sh -c pnpm …`, which waits for pnpm to end, and pnpm is never told).
   */
  onInterrupted(pid: number): void;
}

interface Ancestor {
  pid: number;
  parent: number;
  /** For a shell: how often it has woken up (`voluntary_ctxt_switches`); `undefined` for others. */
  wakeups: number | undefined;
}

/**
 * Calls `onGone` or `onInterrupted`, once, when a process that launched this one exits or is
 * signalled to stop.
 *
 * `npx pnpm start` runs paperlist several processes down (npm exec → sh → pnpm → sh → pnpm → sh →
 * node), and a signal sent to the `npx` PID alone never reaches the server:
 * - SIGTERM: npm forwards it to its shell, which dies; the pnpm below is only orphaned. The server
 *   sees an ancestor's parent change.
 * - SIGINT: npm forwards it to its shell, which (like every POSIX shell waiting on a foreground
 *   child) holds it until the child exits, which it never does. Nothing in the tree changes; the
 *   only trace is that the shell woke up. A shell waiting on its child wakes for nothing else but
 *   the child stopping, continuing or exiting, and a stop (Ctrl-Z) stops this process too: so a
 *   wake-up while this process kept running, with the shell's child still there, is a signal.
 *
 * Under a package manager the server therefore watches its launchers (its ancestors up to the
 * outermost package manager, see `ancestors`) and stops gracefully when one of them is gone or a
 * shell among them was signalled. Linux only (it reads `/proc`); elsewhere,
 * and when not started by a package manager, it does nothing. Returns a function that stops watching.
 */
export function watchLauncher(events: LauncherEvents, env: NodeJS.ProcessEnv = process.env): () => void {
  if (env['npm_lifecycle_event'] === undefined || process.platform !== 'linux') return () => {};
  const chain = ancestors(process.pid);
  if (chain.length === 0) return () => {};

  let lastTick = Date.now();
  let continuedAt = 0;
  const onContinue = () => {
    continuedAt = Date.now();
  };
  process.on('SIGCONT', onContinue);
  const stop = () => {
    clearInterval(timer);
    process.off('SIGCONT', onContinue);
  };
  const rebaseline = () => {
    for (const ancestor of chain) if (ancestor.wakeups !== undefined) ancestor.wakeups = wakeupsOf(ancestor.pid) ?? ancestor.wakeups;
  };

  const timer = setInterval(() => {
    const now = Date.now();
    const stale = now - lastTick > LATE_MS || now - continuedAt < AFTER_CONTINUE_MS;
    lastTick = now;
    for (const { pid, parent } of watchedForExit(chain)) {
      if (parentOf(pid) !== parent) {
        stop();
        events.onGone(pid);
        return;
      }
    }
    if (stale) {
      rebaseline();
      return;
    }
    for (const ancestor of chain) {
      if (ancestor.wakeups === undefined) continue;
      const wakeups = wakeupsOf(ancestor.pid);
      if (wakeups === undefined || wakeups === ancestor.wakeups) continue;
      if (stateOf(ancestor.pid) === 'T') {
        // Stopped on its own (kill -STOP to the shell alone): not a request to end.
        ancestor.wakeups = wakeups;
        continue;
      }
      stop();
      events.onInterrupted(ancestor.pid);
      return;
    }
  }, CHECK_MS);
  timer.unref();
  return stop;
}

/**
 * The launchers of `pid`, nearest first: its ancestors up to the outermost package manager
 * (`npm exec`, `npx`, `pnpm`, `yarn`) and the shells the package managers run scripts with.
 * Whatever started the package manager (a terminal, a script running other commands meanwhile, a
 * shell that has exited) is not watched: its shells wake for their own reasons, and its exit
 * leaves a detached server running, as it should. The outermost package manager's own parent is
 * not watched for the same reason (see {@link watchedForExit}).
 */
function ancestors(pid: number): Ancestor[] {
  const chain: Ancestor[] = [];
  for (let at = parentOf(pid); at !== undefined && at > 1 && chain.length < 32; ) {
    const stat = statOf(at);
    if (stat === undefined) break;
    const shell = SHELLS.has(stat.command);
    // A shell counts only when a package manager runs it (its parent); anything else ends the chain.
    if (shell ? !isPackageManager(stat.parent) : !isPackageManager(at)) break;
    chain.push({ pid: at, parent: stat.parent, wakeups: shell ? wakeupsOf(at) : undefined });
    at = stat.parent;
  }
  // Above the outermost package manager: nothing of the launch (a shell just below it was a script's own).
  while (chain.length > 0 && !isPackageManager(chain[chain.length - 1]!.pid)) chain.pop();
  return chain;
}

/** The launchers whose exit (their parent changing) means the launch was stopped: all but the outermost. */
function watchedForExit(chain: readonly Ancestor[]): readonly Ancestor[] {
  return chain.slice(0, -1);
}

/** Whether `pid` runs npm, npx, pnpm or yarn (as its own program, or as node's script). */
function isPackageManager(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2);
    return argv.some((arg) => /(^|\/)(npm|npx|pnpm|yarn)(-cli)?(\.c?js)?$|^npm exec\b|^(npm|pnpm|yarn) /.test(arg));
  } catch {
    return false;
  }
}

/** The parent of `pid`, or `undefined` when it no longer exists. */
function parentOf(pid: number): number | undefined {
  return statOf(pid)?.parent;
}

/** The state letter of `pid` (`S`, `R`, `T` for stopped, …). */
function stateOf(pid: number): string | undefined {
  return statOf(pid)?.state;
}

/** Fields of `/proc/<pid>/stat`: "pid (command) state ppid …"; the command may hold spaces and parentheses. */
function statOf(pid: number): { command: string; state: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { command: stat.slice(stat.indexOf('(') + 1, close), state: fields[0] ?? '', parent: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** How many times `pid` has gone to sleep and woken since it started. */
function wakeupsOf(pid: number): number | undefined {
  try {
    const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
