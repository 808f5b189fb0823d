import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** The repository root, where the README's start command runs. */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const children: { child: ReturnType<typeof spawn>; detached: boolean }[] = [];
afterEach(() => {
  for (const { child, detached } of children.splice(0)) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    try {
      // A detached command has a process group of its own: end the whole tree.
      if (detached) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/**
 * Runs the README's start command (`npx -y pnpm@10 start`) as it is, on a free port, and
 * answers its output so far and a promise of the server's last line.
 */
function startReadmeCommand(options: { detached?: boolean } = {}) {
  const child = spawn('npx', ['-y', 'pnpm@10', 'start', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached === true });
  children.push({ child, detached: options.detached === true });
  let output = '';
  const seen = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const check of seen) check();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const waitFor = (pattern: RegExp, ms = 90_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        seen.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        seen.delete(check);
        reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`));
      }, ms);
      seen.add(check);
      check();
    });
  return { child, waitFor, output: () => output };
}

describe("the README's start command", () => {
  it('stops the server gracefully on SIGTERM sent to its PID (npx), not leaving it running', { timeout: 120_000 }, async () => {
    const run = startReadmeCommand();
    const url = await served(run);
    run.child.kill('SIGTERM');
    // npx itself exits at once; the server, four processes below it, notices and shuts down.
    await run.waitFor(/the process that started paperlist \(pid \d+\) has exited/, 30_000);
    await run.waitFor(/stopped/, 30_000);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('stops the server gracefully on SIGINT sent to its PID (npx) alone', { timeout: 120_000 }, async () => {
    const run = startReadmeCommand();
    const url = await served(run);
    // npm forwards SIGINT to its shell, which holds it while pnpm runs: only the server can act on it.
    run.child.kill('SIGINT');
    await run.waitFor(/the shell that started paperlist \(pid \d+\) was signalled to stop/, 30_000);
    await run.waitFor(/stopped/, 30_000);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('keeps serving after the whole command is stopped and continued (Ctrl-Z, fg)', { timeout: 120_000 }, async () => {
    const run = startReadmeCommand({ detached: true });
    const url = await served(run);
    // SIGSTOP, not SIGTSTP: the kernel ignores SIGTSTP in a process group with no terminal.
    process.kill(-run.child.pid!, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    process.kill(-run.child.pid!, 'SIGCONT');
    // Several of the watcher's checks pass; the shells woke up, but from the stop, not a signal.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await fetch(url)).status).toBe(200);
    expect(run.output()).not.toMatch(/was signalled to stop|has exited|shutting down/);
    run.child.kill('SIGTERM');
    await run.waitFor(/stopped/, 30_000);
  });

  it('keeps serving when a script starts it in the background and goes on with other commands, then exits', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paperlist-start-'));
    const log = join(dir, 'server.log');
    // The usual CI pattern: the server in the background, then other commands (each wakes the script's shell).
    const script = spawn('sh', ['-c', `npx -y pnpm@10 start --port 0 > '${log}' 2>&1 &\nfor i in $(seq 1 60); do sleep 0.1; done`], { cwd: ROOT, stdio: 'ignore', detached: true });
    children.push({ child: script, detached: true });
    const output = () => readFile(log, 'utf8').catch(() => '');
    const serving = /serving 4,000 papers at (http:\/\/\S+)/;
    let url: string | undefined;
    for (const deadline = Date.now() + 90_000; url === undefined && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      url = serving.exec(await output())?.[1];
    }
    expect(url, await output()).toBeDefined();
    const exited = script.exitCode !== null ? Promise.resolve() : new Promise((resolve) => script.once('exit', resolve));
    await exited;
    // The script's shell woke for every `sleep`, and it is gone now: neither is a request to stop.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await fetch(url!)).status).toBe(200);
    expect(await output()).not.toMatch(/was signalled to stop|has exited|shutting down/);
    process.kill(-script.pid!, 'SIGINT');
    for (const deadline = Date.now() + 30_000; !/stopped/.test(await output()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    expect(await output()).toMatch(/SIGINT: shutting down[^]*stopped/);
    await rm(dir, { recursive: true, force: true });
  });

  it('stops the server gracefully on Ctrl-C (SIGINT to its process group, as a terminal sends it)', { timeout: 120_000 }, async () => {
    const run = startReadmeCommand({ detached: true });
    const url = await served(run);
    process.kill(-run.child.pid!, 'SIGINT');
    await run.waitFor(/SIGINT: shutting down/, 30_000);
    await run.waitFor(/stopped/, 30_000);
    await expect(fetch(url)).rejects.toThrow();
  });
});

async function served(run: ReturnType<typeof startReadmeCommand>): Promise<string> {
  const serving = /serving 4,000 papers at (http:\/\/\S+)/;
  await run.waitFor(serving);
  const url = serving.exec(run.output())![1]!;
  expect((await fetch(url)).status).toBe(200);
  return url;
}
