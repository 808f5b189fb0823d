/**
 * The way in before the first publish, as a user takes it: `pnpm pack:all` builds and packs the
 * publishable packages, and throwaway apps outside the workspace install those tarballs with npm
 * (Express 4, strict-TypeScript Express 5 with the client, Koa, Hono, CommonJS, the CLI) and serve
 * the embedded sample over real HTTP. Without the npm registry the apps are skipped, saying so;
 * the checks of the tarballs themselves run offline.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, createPapersHandler, type Paper } from '../packages/core/src/index.js';
import { loadSamplePapers } from '../packages/core/src/sample.js';
import { packTarballs, publishablePackages, WORKSPACE_ROOT, type PackedTarball } from './pack-tarballs.js';
import { lintTarballs, type TarballLint } from './lint-tarballs.js';
import { npmInstall, npmRegistryReachable, prepareApp, runIn, startApp, type RunningApp } from './tarball-app-runner.js';

const run = promisify(execFile);
const TSC = join(WORKSPACE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SEARCH = '/api/v1/papers/?q=attention';
const APPS = ['express4', 'express5-ts', 'koa', 'hono', 'commonjs', 'cli'] as const;
type AppName = (typeof APPS)[number];

interface ListBody {
  count: number;
  next: string | null;
  previous: string | null;
  results: Paper[];
}

const registry = await npmRegistryReachable();
if (!registry.ok) {
  console.warn(`tarball install: the npm registry cannot be reached (${registry.reason}); the apps that install the tarballs are skipped`);
}

describe('the packed tarballs (pnpm pack:all)', () => {
  let tmp: string;
  let packed: PackedTarball[];
  let lint: Promise<TarballLint[]>;
  const installs = new Map<AppName, Promise<string>>();
  const running: RunningApp[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'paperlist-tarballs-'));
    packed = await packTarballs({ outDir: join(tmp, 'tarballs'), stdio: 'ignore' });
    // Linting and installing run side by side; each test awaits what it needs.
    lint = lintTarballs(packed.map((entry) => entry.tarball));
    lint.catch(() => {});
    if (registry.ok) {
      await mkdir(join(tmp, 'apps'));
      for (const app of APPS) {
        const installed = prepareApp(app, join(tmp, 'apps'), packed).then(async (dir) => {
          await npmInstall(dir);
          return dir;
        });
        installed.catch(() => {});
        installs.set(app, installed);
      }
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(running.map((app) => app.stop()));
    await Promise.allSettled(installs.values());
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  it('has one tarball per publishable package', async () => {
    const names = (await publishablePackages()).map((pkg) => pkg.name);
    expect(names).toEqual(['@paperlist/cli', '@paperlist/client', '@paperlist/core', '@paperlist/express', '@paperlist/koa', '@paperlist/postgres']);
    expect(packed.map((entry) => entry.name)).toEqual(names);
  });

  it('ship the licence, the README and dist/ only; core also the sample and its licence', async () => {
    const license = await readFile(join(WORKSPACE_ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n/);
    for (const entry of packed) {
      expect(entry.files, entry.name).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
      const unexpected = entry.files.filter(
        (file) => !['LICENSE', 'README.md', 'package.json'].includes(file) && !file.startsWith('dist/') && !file.startsWith('data/'),
      );
      expect(unexpected, entry.name).toEqual([]);
      expect(entry.files.some((file) => file.startsWith('dist/'))).toBe(true);
      const unpacked = await unpack(entry, tmp);
      expect(await readFile(join(unpacked, 'LICENSE'), 'utf8'), `${entry.name} LICENSE`).toBe(license);
    }
    const core = packed.find((entry) => entry.name === '@paperlist/core')!;
    expect(core.files.filter((file) => file.startsWith('data/'))).toEqual(['data/LICENSE', 'data/README.md', 'data/papers-sample.jsonl.gz']);
    const dataLicense = await readFile(join(await unpack(core, tmp), 'data', 'LICENSE'), 'utf8');
    expect(dataLicense).toContain('CC0 1.0');
    expect(dataLicense).toContain('doi:10.5281/zenodo.1463242');
    expect(dataLicense).toContain('ACL Anthology, https://aclanthology.org, CC BY 4.0');
    for (const entry of packed.filter((other) => other !== core)) {
      expect(entry.files.some((file) => file.startsWith('data/')), entry.name).toBe(false);
    }
  });

  it("core's main entry, as built, reaches no Node module (ESM and CommonJS), and the node entry does", async () => {
    const core = await unpack(packed.find((entry) => entry.name === '@paperlist/core')!, tmp);
    for (const entry of ['dist/index.js', 'dist/index.cjs']) {
      const reached = await reachableImports(core, entry);
      expect(reached.filter((specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier)), entry).toEqual([]);
      expect(reached.filter((specifier) => !specifier.startsWith('.')), entry).toEqual(['@sinclair/typebox']);
    }
    for (const entry of ['dist/node.js', 'dist/node.cjs']) {
      const reached = (await reachableImports(core, entry)).map((specifier) => specifier.replace(/^node:/, ''));
      expect(reached, entry).toEqual(expect.arrayContaining(['fs', 'worker_threads', 'zlib']));
    }
  });

  it('name each other by version range (no workspace: left) and carry the publishing metadata', async () => {
    const repositories = new Set<string>();
    for (const entry of packed) {
      const manifest = JSON.parse(await readFile(join(await unpack(entry, tmp), 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(JSON.stringify(manifest), entry.name).not.toContain('workspace:');
      for (const [dep, range] of Object.entries((manifest['dependencies'] ?? {}) as Record<string, string>)) {
        if (dep.startsWith('@paperlist/')) expect(range, `${entry.name} -> ${dep}`).toBe(`^${packed.find((p) => p.name === dep)!.version}`);
      }
      expect(manifest['license']).toBe('MIT');
      expect(manifest['engines']).toEqual({ node: '>=20' });
      expect(manifest['publishConfig']).toEqual({ access: 'public', provenance: true });
      const directory = `packages/${entry.name.slice('@paperlist/'.length)}`;
      expect(manifest['repository']).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/.+\.git$/), directory });
      expect(manifest['homepage']).toMatch(new RegExp(`/tree/main/${directory}#readme$`));
      expect(manifest['files']).toEqual(expect.arrayContaining(['LICENSE', 'README.md']));
      expect(manifest['version']).toBe(packed[0]!.version);
      repositories.add((manifest['repository'] as { url: string }).url);
    }
    // Provenance ties every package to one repository, and the release to one shared version.
    expect(repositories.size).toBe(1);
  });

  it('pass publint (suggestions included) and are-the-types-wrong, node10 resolution included', async () => {
    const results = await lint;
    expect(results.map(({ tarball, problems }) => ({ tarball, problems }))).toEqual(packed.map((entry) => ({ tarball: entry.tarball, problems: [] })));
  }, 120_000);

  describe.skipIf(!registry.ok)(registry.ok ? 'installed with npm into apps outside the workspace' : `installed with npm: skipped, no npm registry (${registry.reason})`, () => {
    const expected = (async () => {
      const handle = createPapersHandler({ source: createMemorySource(await loadSamplePapers()) });
      const answer = await handle({ method: 'GET', url: SEARCH, basePath: '/api/v1', headers: { host: '127.0.0.1' } });
      return JSON.parse(new TextDecoder().decode(answer!.body!)) as ListBody;
    })();

    const installed = (app: AppName) => installs.get(app)!;
    const start = async (app: AppName, command: string, args: string[]) => {
      const started = await startApp(await installed(app), command, args);
      running.push(started);
      return started;
    };

    /** The search answers what the workspace's sources answer, with links to the app's own origin. */
    const expectSearch = async ({ origin }: RunningApp) => {
      const res = await fetch(`${origin}${SEARCH}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = (await res.json()) as ListBody;
      const want = await expected;
      expect(body.count).toBeGreaterThan(50);
      expect(body.count).toBe(want.count);
      expect(body.results.map((paper) => paper.id)).toEqual(want.results.map((paper) => paper.id));
      expect(body.results).toEqual(want.results);
      expect(body.next).toBe(`${origin}/api/v1/papers/?page=2&q=attention`);
      expect(body.previous).toBeNull();
      const schema = await fetch(`${origin}/api/v1/schema/`);
      expect(schema.status).toBe(200);
      expect(((await schema.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    };

    const versionOf = async (app: AppName, dep: string) =>
      (JSON.parse(await readFile(join(await installed(app), 'node_modules', dep, 'package.json'), 'utf8')) as { version: string }).version;

    it('Express 4 (ESM) serves the sample', async () => {
      expect(await versionOf('express4', 'express')).toMatch(/^4\./);
      await expectSearch(await start('express4', process.execPath, ['server.js']));
    }, 300_000);

    it('Express 5 in strict TypeScript type-checks, serves the sample, and @paperlist/client reads it', async () => {
      expect(await versionOf('express5-ts', 'express')).toMatch(/^5\./);
      const dir = await installed('express5-ts');
      await runIn(dir, process.execPath, [TSC, '-p', 'tsconfig.json']);
      const app = await start('express5-ts', process.execPath, ['dist/server.js']);
      await expectSearch(app);
      const queried = JSON.parse(await runIn(dir, process.execPath, ['dist/query.js', `${app.origin}/api/v1`])) as { count: number; ids: string[] };
      const want = await expected;
      expect(queried.count).toBe(want.count);
      expect(queried.ids).toEqual(want.results.slice(0, 5).map((paper) => paper.id));
    }, 300_000);

    it('Koa with @koa/router serves the sample, the schema route included', async () => {
      expect(await versionOf('koa', 'koa')).toMatch(/^3\./);
      await expectSearch(await start('koa', process.execPath, ['server.js']));
    }, 300_000);

    it('Hono serves the sample through createFetchHandler with code generation from strings refused, its own route beside it', async () => {
      const app = await start('hono', process.execPath, ['--disallow-code-generation-from-strings', 'server.js']);
      await expectSearch(app);
      const own = await fetch(`${app.origin}/api/v1/healthz`);
      expect(own.status).toBe(200);
      expect(await own.text()).toBe('ok');
    }, 300_000);

    it('a CommonJS app serves the sample through require()', async () => {
      await expectSearch(await start('commonjs', process.execPath, ['server.cjs']));
    }, 300_000);

    it('@paperlist/core/sample type-checks under TypeScript\'s CommonJS defaults (node10) and runs', async () => {
      const dir = await installed('commonjs');
      await runIn(dir, process.execPath, [TSC, '-p', 'tsconfig.json']);
      const output = JSON.parse(await runIn(dir, process.execPath, ['dist/sample-count.js'])) as { papers: number; path: string; title: string };
      expect(output).toEqual({
        papers: 4000,
        path: join(dir, 'node_modules', '@paperlist', 'core', 'data', 'papers-sample.jsonl.gz'),
        title: 'Attention Is All You Need',
      });
    }, 300_000);

    it('the paperlist bin of @paperlist/cli serves the sample', async () => {
      const dir = await installed('cli');
      const app = await start('cli', join(dir, 'node_modules', '.bin', 'paperlist'), ['serve', '--port', '0']);
      // The server listens while it loads the catalogue; /healthz says when it is ready.
      const deadline = Date.now() + 30_000;
      while ((await fetch(`${app.origin}/healthz`)).status !== 200) {
        expect(Date.now(), 'paperlist serve never became ready').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await expectSearch(app);
    }, 300_000);
  });
});

/** Every module specifier `entry` imports, directly or through the package's own files it imports. */
async function reachableImports(packageDir: string, entry: string): Promise<string[]> {
  const specifiers = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(join(packageDir, file), 'utf8');
    // Statements as the build writes them (ESM: double quotes, `import {` … `} from "x"` may span lines;
    // CommonJS: `require('x')`), so that a module name inside a string or comment is not an import.
    const statements = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"|\b(?:require|import)\(["']([^"']+)["']\)/gm;
    for (const match of code.matchAll(statements)) {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      specifiers.add(specifier);
      if (specifier.startsWith('.')) await visit(posix.join(posix.dirname(file), specifier));
    }
  };
  await visit(entry);
  return [...specifiers].sort();
}

const unpacked = new Map<string, Promise<string>>();

/** The tarball's `package/` folder, extracted once. */
function unpack(entry: PackedTarball, tmp: string): Promise<string> {
  let done = unpacked.get(entry.tarball);
  if (done === undefined) {
    const into = join(tmp, 'unpacked', entry.name.replace('/', '+'));
    done = mkdir(into, { recursive: true })
      .then(() => run('tar', ['-xzf', entry.tarball, '-C', into]))
      .then(() => join(into, 'package'));
    unpacked.set(entry.tarball, done);
  }
  return done;
}
