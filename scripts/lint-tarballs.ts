/**
 * `pnpm lint:packages`: checks the tarballs `pnpm pack:all` wrote, as the registry would get them,
 * with publint (package.json against the files shipped) and are-the-types-wrong (the types every
 * TypeScript resolution mode finds: node10, node16 from CJS and ESM, bundler).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData, type Problem, type ResolutionKind } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { WORKSPACE_ROOT } from './pack-tarballs.js';

// are-the-types-wrong's profiles: which resolution modes a package does not promise to serve.
const IGNORED_RESOLUTIONS: Record<'strict' | 'esm-only', readonly ResolutionKind[]> = {
  strict: [],
  'esm-only': ['node10', 'node16-cjs'],
};

/** What was found wrong with one tarball: one line per problem, empty when it is clean. */
export interface TarballLint {
  tarball: string;
  problems: string[];
}

/**
 * Lints each tarball with publint (suggestions included, strict: they count as problems) and
 * are-the-types-wrong, in this process (TypeScript is loaded once), one tarball after the other.
 */
export async function lintTarballs(tarballs: readonly string[]): Promise<TarballLint[]> {
  const results: TarballLint[] = [];
  for (const tarball of tarballs) results.push(await lintTarball(tarball));
  return results;
}

async function lintTarball(tarball: string): Promise<TarballLint> {
  const bytes = await readFile(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
    level: 'suggestion',
    strict: true,
  });
  const problems = messages.map((message) => `publint ${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`);
  // A package without a CommonJS entry (the CLI) is judged by attw's esm-only profile.
  const profile = hasRequireEntry(pkg['exports']) ? 'strict' : 'esm-only';
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(bytes)));
  if (analysis.types === false) problems.push('are-the-types-wrong: the package has no types');
  else {
    for (const problem of analysis.problems) {
      if ('resolutionKind' in problem && IGNORED_RESOLUTIONS[profile].includes(problem.resolutionKind)) continue;
      problems.push(`are-the-types-wrong (${profile}): ${describeProblem(problem)}`);
    }
  }
  return { tarball, problems };
}

/** One line per problem, with the page of attw's documentation that explains it. */
function describeProblem(problem: Problem): string {
  const where =
    'entrypoint' in problem
      ? `"${problem.entrypoint}" under ${problem.resolutionKind}`
      : 'typesFileName' in problem
        ? problem.typesFileName
        : problem.fileName;
  return `${problem.kind} at ${where} (https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/docs/problems/${problem.kind}.md)`;
}

/** Whether an `exports` map offers a `require` condition anywhere. */
function hasRequireEntry(exports: unknown): boolean {
  if (exports === null || typeof exports !== 'object') return false;
  return Object.entries(exports).some(([key, value]) => key === 'require' || hasRequireEntry(value));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(WORKSPACE_ROOT, 'dist-tarballs'));
  const tarballs = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.tgz')).map((file) => join(dir, file));
  if (tarballs.length === 0) {
    console.error(`no tarballs in ${dir}: run "pnpm pack:all" first`);
    process.exit(2);
  }
  let failed = 0;
  for (const { tarball, problems } of await lintTarballs(tarballs)) {
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${tarball}`);
    for (const problem of problems) console.log(`     ${problem.replaceAll('\n', '\n     ')}`);
    if (problems.length > 0) failed++;
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
