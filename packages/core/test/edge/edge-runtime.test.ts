/**
 * `@paperlist/core` runs where Node does not: without Node built-ins and without code generation
 * from strings (Cloudflare Workers refuse `eval` and `new Function`). Two proofs on the entry's
 * sources: a process started with `--disallow-code-generation-from-strings` imports it and serves
 * requests; and an esbuild bundle for `platform: 'browser'` builds with no Node import left and
 * serves requests in a bare V8 context that has only web globals, no `require`, `process` or
 * `Buffer`, and code generation refused too.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Script, createContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { EdgeRun } from './fixtures/edge-app.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function expectServed(run: EdgeRun): void {
  expect(run.list.status).toBe(200);
  expect(run.list.contentType).toBe('application/json');
  expect(run.list.body.count).toBe(2);
  expect(run.list.body.results.map((paper) => paper.id)).toEqual(['attention-is-all-you-need']);
  expect(run.list.body.next).toBe('https://papers.example/api/v1/papers/?items_per_page=1&page=2&q=attention');
  expect(run.one).toEqual({ status: 200, id: 'deep-residual-learning' });
  expect(run.notOwned).toBeNull(); // `fallthrough: true` leaves other paths to the host
  expect(run.refusal).toBe('field "published": expected a real date YYYY-MM-DD, got "2019-02-30"');
}

describe('the edge entry', () => {
  it('imports and serves under node --disallow-code-generation-from-strings', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', fixture('run-without-codegen.mts')],
      { timeout: 60_000 },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as EdgeRun & { codegen: string };
    expect(result.codegen).toBe('EvalError'); // the flag is in force in that process
    expectServed(result);
  });

  it('bundles for the browser without Node imports, and serves in a context with web globals only', async () => {
    const bundled = await build({
      stdin: {
        contents: `import { run } from './edge-app.ts'; globalThis.edgeRun = run();`,
        resolveDir: fileURLToPath(new URL('./fixtures/', import.meta.url)),
        sourcefile: 'worker.ts',
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(bundled.errors).toEqual([]);
    expect(bundled.warnings).toEqual([]);
    // Nothing left outside the bundle, and nothing in it that reaches for Node or evaluates strings.
    const [output] = Object.values(bundled.metafile.outputs);
    expect(output!.imports).toEqual([]);
    const code = bundled.outputFiles[0]!.text;
    expect(code).not.toMatch(/["'`]node:|\brequire\(|new Function\(|\beval\(/);
    const inputs = Object.keys(bundled.metafile.inputs);
    expect(inputs.filter((input) => /\/(load|threads|snapshot|node)\/|worker_threads|zlib/.test(input))).toEqual([]);

    // The globals a worker has; no require, process, Buffer, setImmediate.
    const sandbox: Record<string, unknown> = {
      console,
      TextEncoder,
      TextDecoder,
      URL,
      URLSearchParams,
      Request,
      Response,
      Headers,
      AbortController,
      AbortSignal,
      performance,
      queueMicrotask,
      setTimeout,
      clearTimeout,
    };
    const context = createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
    new Script(code, { filename: 'worker-bundle.js' }).runInContext(context);
    expect(new Script('typeof require + typeof process + typeof Buffer').runInContext(context)).toBe('undefinedundefinedundefined');
    expectServed(await (sandbox['edgeRun'] as Promise<EdgeRun>));
  });
});
