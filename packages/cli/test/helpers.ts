import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Paper } from '@paperlist/core';
import { parquetWriteBuffer } from 'hyparquet-writer';

/** packages/cli */
export const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A running `paperlist` child process, started from the TypeScript sources through tsx. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `pattern` appears on stdout or stderr (rejects on exit or after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** Starts `paperlist ...args` as a real child process (node --conditions=@paperlist/source --import tsx src/bin.ts). */
export function startCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  // The CLI resolves paths against INIT_CWD when started by a package manager: not here.
  for (const name of ['npm_lifecycle_event', 'npm_package_name', 'INIT_CWD', 'PORT', 'HOST', 'PAPERLIST_DATABASE_URL']) delete env[name];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ['--conditions=@paperlist/source', '--import', 'tsx', join(CLI_DIR, 'src/bin.ts'), ...args], {
    cwd: options.cwd ?? CLI_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const check of waiters) check();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const check of waiters) check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(out) || pattern.test(err)) {
            done();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const onExit = () => {
          // Let the last output arrive before deciding.
          setImmediate(() => {
            check();
            done();
            reject(new Error(`paperlist exited before ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
          });
        };
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off('close', onExit);
        };
        waiters.add(check);
        child.once('close', onExit);
        check();
      });
    },
  };
}

/** Runs `paperlist ...args` to the end. */
export async function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = startCli(args, options);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** Kills the child processes a test left running. */
export function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** The URL the CLI announced (`paperlist: serving N papers at URL`). */
export function servedUrl(cli: CliProcess): string {
  const match = /serving [\d,]+ papers at (\S+)/.exec(cli.stdout());
  if (match === null) throw new Error(`no URL announced:\n${cli.stdout()}\n${cli.stderr()}`);
  return match[1]!;
}

/** A TCP port free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function tempDir(): Promise<{ path: string; file(name: string): string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'paperlist-cli-'));
  return { path, file: (name) => join(path, name), remove: () => rm(path, { recursive: true, force: true }) };
}

export function paper(id: string, fields: Partial<Paper> = {}): Paper {
  return {
    id,
    arxiv_id: null,
    nips_id: null,
    url_abs: `https://example.org/${id}`,
    url_pdf: `https://example.org/${id}.pdf`,
    title: `Title of ${id}`,
    abstract: `Abstract of ${id}.`,
    authors: ['Ada Lovelace'],
    published: '2020-02-29',
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: null,
    ...fields,
  };
}

/** A record as the Papers with Code dump `papers-with-abstracts.json` has it, extra fields included. */
export function pwcRecord(slug: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paper_url: `https://paperswithcode.com/paper/${slug}`,
    arxiv_id: '1706.03762',
    nips_id: null,
    title: `PwC paper ${slug}`,
    abstract: `About ${slug}.`,
    url_abs: 'https://arxiv.org/abs/1706.03762v5',
    url_pdf: 'https://arxiv.org/pdf/1706.03762v5.pdf',
    proceeding: null,
    authors: ['Ashish Vaswani', 'Noam Shazeer'],
    tasks: ['Machine Translation'],
    date: '2017-06-12',
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    methods: [{ name: 'Adam' }],
    ...fields,
  };
}

export const jsonLines = (records: readonly unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

export async function writeJsonLines(path: string, records: readonly unknown[], gzip = false): Promise<string> {
  await writeFile(path, gzip ? gzipSync(jsonLines(records)) : jsonLines(records));
  return path;
}

/** A PwC dump as the archive had it: one JSON array (on one line), gzip-compressed. */
export async function writePwcDump(path: string, records: readonly unknown[]): Promise<string> {
  await writeFile(path, gzipSync(JSON.stringify(records)));
  return path;
}

const STRING_COLUMNS = [
  'paper_url',
  'arxiv_id',
  'nips_id',
  'title',
  'abstract',
  'url_abs',
  'url_pdf',
  'proceeding',
  'date',
  'conference',
  'conference_url_abs',
  'conference_url_pdf',
] as const;

/** PwC records as a Parquet file (snappy, row groups of `rowGroupSize`), written with hyparquet-writer. */
export async function writePwcParquet(path: string, records: readonly Record<string, unknown>[], rowGroupSize = 1000): Promise<string> {
  const schema: Record<string, unknown>[] = [{ name: 'root', num_children: STRING_COLUMNS.length + 1 }];
  const columnData: { name: string; data: unknown[] }[] = [];
  for (const name of STRING_COLUMNS) {
    schema.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
    columnData.push({ name, data: records.map((r) => r[name] ?? null) });
  }
  schema.push(
    { name: 'authors', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  );
  columnData.push({ name: 'authors', data: records.map((r) => r['authors'] ?? null) });
  const buffer = parquetWriteBuffer({ columnData, schema, rowGroupSize } as unknown as Parameters<typeof parquetWriteBuffer>[0]);
  await writeFile(path, new Uint8Array(buffer));
  return path;
}

/** GET `url` as JSON. */
export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}
