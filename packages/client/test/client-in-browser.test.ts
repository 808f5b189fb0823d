import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { chromium, type Browser } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePaperlist, type TestServer } from './serve-paperlist.js';

// The client's sources, transpiled as they are (no bundler), run as ES modules in Chromium
// against a real server: proof that it needs nothing but what browsers have.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`client browser test skipped: ${CHROMIUM} is missing (apt-get install chromium).`);

async function transpileClient(): Promise<Map<string, string>> {
  const dir = new URL('../src/', import.meta.url);
  const modules = new Map<string, string>();
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.ts')) continue;
    const source = await readFile(new URL(file, dir), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    modules.set(`/client/${file.replace(/\.ts$/, '.js')}`, outputText);
  }
  return modules;
}

describe.skipIf(!hasChromium)(hasChromium ? '@paperlist/client in Chromium' : `@paperlist/client in Chromium (skipped: no ${CHROMIUM})`, () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const modules = await transpileClient();
    server = await servePaperlist({ source: createMemorySource(await loadSamplePapers()) }, (req, res) => {
      const path = req.url ?? '';
      if (path === '/blank.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(
          '<!doctype html><title>client</title><script type="module">import * as client from "/client/index.js"; window.paperlist = client;</script>',
        );
        return true;
      }
      const module = modules.get(path);
      if (module === undefined) return false;
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(module);
      return true;
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('walks the sample, reads errors and aborts, in the browser', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/blank.html`);
    await page.waitForFunction(() => 'paperlist' in window);
    const result = await page.evaluate(async () => {
      // Loaded by the page as a native ES module (vitest would rewrite an import() written here).
      const { createClient, PaperlistError } = (window as unknown as { paperlist: typeof import('../src/index.js') }).paperlist;
      // A relative base URL resolves against the page.
      const client = createClient({ baseUrl: '/api/v1' });
      const ids = new Set<string>();
      let walked = 0;
      for await (const paper of client.iterPapers({ items_per_page: 500 })) {
        ids.add(paper.id);
        walked++;
      }
      const error = await client.getPaper('missing').catch((caught: unknown) => caught);
      const aborted = await client
        .listPapers({}, { signal: AbortSignal.abort() })
        .then(() => 'not aborted', (caught: unknown) => (caught as Error).name);
      return {
        walked,
        unique: ids.size,
        isPaperlistError: error instanceof PaperlistError,
        status: (error as { status?: number }).status,
        detail: (error as { detail?: string }).detail,
        aborted,
      };
    });
    expect(result).toEqual({ walked: 4000, unique: 4000, isPaperlistError: true, status: 404, detail: 'Not found.', aborted: 'AbortError' });
  });
});
