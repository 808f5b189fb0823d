/**
 * What `tarball-install.test.ts` does with the apps in `scripts/tarball-apps/`: copy one outside
 * the workspace, point it at the packed tarballs, install it with npm, run it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PackedTarball } from './pack-tarballs.js';

const run = promisify(execFile);

/** `scripts/tarball-apps/`. */
export const APPS_DIR = fileURLToPath(new URL('./tarball-apps/', import.meta.url));

// npm reads its settings from npm_config_* variables, and npx/pnpm export theirs: among them
// npm_config_local_prefix, which would make `npm install` work on the workspace instead of the
// app. Only the ones that say where and how to reach the registry are passed on.
const KEPT_NPM_CONFIG = /^npm_config_(cache|registry|userconfig|globalconfig|cafile|ca|proxy|https_proxy|noproxy|strict_ssl|@[^:]+:registry)$/i;

/**
 * The environment of the npm and app processes: this one without the package manager's
 * variables (npm_*, INIT_CWD) and without what would change an app's behaviour (PORT, HOST,
 * PAPERLIST_*, NODE_OPTIONS).
 */
export function appEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm|pnpm)_/i.test(key) && !KEPT_NPM_CONFIG.test(key)) continue;
    if (/^PAPERLIST_/.test(key) || ['INIT_CWD', 'PORT', 'HOST', 'NODE_OPTIONS', 'PNPM_PACKAGE_NAME'].includes(key)) continue;
    env[key] = value;
  }
  return env;
}

/** Whether `npm ping` reaches the configured registry within 20 s; the reason when it does not. */
export async function npmRegistryReachable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await run('npm', ['ping'], { env: appEnv(), timeout: 20_000 });
    return { ok: true };
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const lines = (stderr ?? message).split('\n').filter((line) => /npm (error|ERR)/.test(line));
    return { ok: false, reason: lines.join(' ').trim() || message.split('\n')[0]! };
  }
}

/**
 * Copies app `name` to `into` and rewrites every `@paperlist/*` dependency of its package.json
 * (written `"*"`) to the `file:` path of its tarball. Resolves with the app's folder.
 */
export async function prepareApp(name: string, into: string, tarballs: readonly PackedTarball[]): Promise<string> {
  const dir = join(into, name);
  await cp(join(APPS_DIR, name), dir, { recursive: true });
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, Record<string, string> | unknown>;
  for (const field of ['dependencies', 'devDependencies']) {
    const deps = manifest[field] as Record<string, string> | undefined;
    for (const dep of Object.keys(deps ?? {})) {
      if (!dep.startsWith('@paperlist/')) continue;
      const packed = tarballs.find((entry) => entry.name === dep);
      if (packed === undefined) throw new Error(`${name}: no tarball for ${dep}`);
      deps![dep] = `file:${packed.tarball}`;
    }
  }
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

/** `npm install` in `dir` (the shared npm cache, no audit or funding calls). */
export async function npmInstall(dir: string): Promise<void> {
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      env: appEnv(),
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install in ${dir} failed:\n${stdout}${stderr}`, { cause: error });
  }
}

/** Runs a command to its end in `dir`; rejects with its output when it fails. */
export async function runIn(dir: string, command: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(command, [...args], { cwd: dir, env: appEnv(), timeout: 120_000 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} in ${dir} failed:\n${stdout}${stderr}`, { cause: error });
  }
}

/** A started app: the origin it announced, and how to stop it. */
export interface RunningApp {
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` in `dir` and resolves once it prints an `http://127.0.0.1:PORT` address
 * (on stdout or stderr); rejects if it exits first or says nothing within `timeoutMs`.
 */
export function startApp(dir: string, command: string, args: readonly string[], timeoutMs = 30_000): Promise<RunningApp> {
  const child = spawn(command, [...args], { cwd: dir, env: appEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} announced no address in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: string) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ origin: `http://127.0.0.1:${match[1]}`, stop: () => stop(child) });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
