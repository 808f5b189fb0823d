/**
 * `pnpm pack:all [DIR]`: builds every publishable package of the workspace and writes their
 * `pnpm pack` tarballs into one folder (default `dist-tarballs/`). Until the packages are on the
 * npm registry, that folder is the way to install them in another project:
 *
 *   npm install /path/to/paperlist/dist-tarballs/paperlist-core-0.1.0.tgz …
 *
 * `pnpm pack` writes the tarballs as `pnpm publish` would upload them: `workspace:^` ranges become
 * real version ranges, and `files` decides what goes in.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { delimiter, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const WORKSPACE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A workspace package that is published (not `private`). */
export interface PublishablePackage {
  name: string;
  version: string;
  /** Absolute path of the package's folder. */
  dir: string;
}

/** One tarball written by {@link packTarballs}. */
export interface PackedTarball {
  name: string;
  version: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** The paths inside the package, as `pnpm pack` listed them. */
  files: string[];
}

/** Options of {@link packTarballs}. */
export interface PackTarballsOptions {
  /** Where the tarballs go; created if missing. Default `dist-tarballs/` in the repository. */
  outDir?: string;
  /** Build the packages first (default true); false packs the `dist/` folders as they are. */
  build?: boolean;
  /** Where pnpm's output goes; default inherited (the terminal). */
  stdio?: 'inherit' | 'ignore';
}

/** The packages under `packages/` that are not private, sorted by name. */
export async function publishablePackages(root = WORKSPACE_ROOT): Promise<PublishablePackage[]> {
  const packagesDir = join(root, 'packages');
  const found: PublishablePackage[] = [];
  for (const entry of await readdir(packagesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(packagesDir, entry.name);
    let manifest: { name?: string; version?: string; private?: boolean };
    try {
      manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    if (manifest.private === true || manifest.name === undefined || manifest.version === undefined) continue;
    found.push({ name: manifest.name, version: manifest.version, dir });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Builds the publishable packages (in dependency order) and packs each into `outDir`, replacing
 * tarballs left there by an earlier run.
 */
export async function packTarballs(options: PackTarballsOptions = {}): Promise<PackedTarball[]> {
  const outDir = resolve(options.outDir ?? join(WORKSPACE_ROOT, 'dist-tarballs'));
  const packages = await publishablePackages();
  const filters = packages.flatMap((pkg) => ['--filter', `./${relative(WORKSPACE_ROOT, pkg.dir)}`]);
  const stdio = options.stdio ?? 'inherit';
  if (options.build !== false) await runPnpm(['-r', ...filters, 'run', 'build'], stdio);

  await mkdir(outDir, { recursive: true });
  for (const file of await readdir(outDir)) {
    if (/^paperlist-.*\.tgz$/.test(file)) await rm(join(outDir, file));
  }
  const json = await runPnpm(['-r', ...filters, 'pack', '--pack-destination', outDir, '--json'], stdio, true);
  const listed = JSON.parse(json) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return listed
    .map((entry) => ({
      name: entry.name,
      version: entry.version,
      tarball: resolve(outDir, entry.filename),
      files: entry.files.map((file) => file.path).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Runs pnpm in the repository root: the `pnpm` on PATH (there inside any `pnpm run`), otherwise
 * the README's `npx -y pnpm@10`. Resolves with stdout when `capture` is set.
 */
function runPnpm(args: string[], stdio: 'inherit' | 'ignore', capture = false): Promise<string> {
  const [command, ...prefix] = onPath('pnpm') ? ['pnpm'] : ['npx', '-y', 'pnpm@10'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command!, [...prefix, ...args], {
      cwd: WORKSPACE_ROOT,
      stdio: ['ignore', capture ? 'pipe' : stdio, stdio === 'inherit' ? 'inherit' : 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(out);
      else reject(new Error(`pnpm ${args.join(' ')} exited with ${code}\n${err}${capture ? '' : out}`.trimEnd()));
    });
  });
}

function onPath(command: string): boolean {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this one
    }
  }
  return false;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? join(WORKSPACE_ROOT, 'dist-tarballs');
  const packed = await packTarballs({ outDir });
  const shown = (path: string) => {
    const fromCwd = relative(process.cwd(), path);
    return fromCwd.startsWith('..') ? path : `./${fromCwd}`;
  };
  console.log(`\n${packed.length} tarballs in ${shown(resolve(outDir))}:`);
  for (const entry of packed) console.log(`  ${entry.name}@${entry.version}  ${shown(entry.tarball)}`);
  console.log(`\nInstall them in another project with npm, for example:\n  npm install ${packed
    .filter((entry) => entry.name === '@paperlist/core' || entry.name === '@paperlist/express')
    .map((entry) => entry.tarball)
    .join(' ')} express`);
}
