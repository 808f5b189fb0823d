import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource } from '../../src/memory/memory-source.js';
import { loadSamplePapers } from '../../src/sample.js';
import { makePaper } from '../make-paper.js';
import { servePapers, type PapersServer } from './serve-papers.js';

// The browsable view as a person uses it: Debian's Chromium driven by playwright-core over a
// real server on the embedded sample. `.ci/run` installs Chromium; without it this file skips.
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url));
const MOUNT = '/api/v1';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`html-view browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium).`);

describe.skipIf(!hasChromium)(hasChromium ? 'the HTML view in Chromium' : `the HTML view in Chromium (skipped: no ${CHROMIUM})`, () => {
  let browser: Browser;
  let server: PapersServer;
  let hostile: PapersServer;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await servePapers({ source: createMemorySource(await loadSamplePapers(), { version: 'sample' }), mount: MOUNT });
    hostile = await servePapers({
      mount: MOUNT,
      source: createMemorySource([
        makePaper({
          id: 'xss',
          title: '<img src=x onerror="window.__pwned=1;alert(1)"> $\\frac{a}{b} < c$ & "q"',
          abstract: '</p><script>window.__pwned=2;alert(2)</script>',
          authors: ['"><svg onload=alert(3)>'],
          url_abs: 'javascript:window.__pwned=4;alert(4)',
          url_pdf: 'https://example.org/x.pdf',
        }),
      ]),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await hostile?.close();
  });

  const count = async () => Number(await page.locator('#count').getAttribute('data-count'));

  it('searches, orders, pages forward and back, and opens a paper', async () => {
    await page.goto(`${server.origin}${MOUNT}/papers/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('h1').textContent()).toBe('Papers');
    expect(await count()).toBe(4000);

    // Type a query and submit with Enter.
    const search = page.getByLabel('Search papers');
    await search.click();
    await page.keyboard.type('neural network');
    await Promise.all([page.waitForURL(/q=neural\+network/), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe('Papers matching “neural network”');
    expect(await search.inputValue()).toBe('neural network');
    const matches = await count();
    expect(matches).toBeGreaterThan(50);
    expect(matches).toBeLessThan(4000);
    await page.screenshot({ path: `${ARTIFACTS}html-view-list.png`, fullPage: false });

    // Order by date, newest first.
    await page.getByLabel('Order by').selectOption('-published');
    await Promise.all([page.waitForURL(/ordering=-published/), page.getByRole('button', { name: 'Search' }).click()]);
    const dates = await page.locator('.results time').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''));
    expect(dates.length).toBeGreaterThan(10);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(await count()).toBe(matches);
    await page.screenshot({ path: `${ARTIFACTS}html-view-ordered.png`, fullPage: false });

    // Forward to page 2, then back with the pager and with the browser's history.
    const firstTitle = await page.locator('.results h2').first().textContent();
    await Promise.all([page.waitForURL(/page=2/), page.getByRole('link', { name: 'Next' }).click()]);
    expect(await page.locator('.results').getAttribute('start')).toBe('51');
    expect(await page.locator('.pager .current').textContent()).toMatch(/^Page 2 of /);
    await page.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    expect(await page.locator('.results h2').first().textContent()).toBe(firstTitle);
    await page.goBack();
    await page.waitForURL(/page=2/);
    await page.getByRole('link', { name: 'First' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await Promise.all([page.waitForURL(/page=\d+/), page.getByRole('link', { name: 'Last' }).click()]);
    expect(await page.getByText('Next', { exact: true }).getAttribute('aria-disabled')).toBe('true');

    // Open a paper.
    const link = page.locator('.results h2 a').first();
    const title = (await link.textContent()) ?? '';
    await Promise.all([page.waitForURL(new RegExp(`${MOUNT}/papers/[^/?]+/$`)), link.click()]);
    expect(await page.locator('h1').textContent()).toBe(title);
    expect(await page.locator('dl.fields').textContent()).toContain('Published');
    await page.screenshot({ path: `${ARTIFACTS}html-view-paper.png`, fullPage: false });

    // One click to the raw JSON of the same paper.
    await page.getByRole('link', { name: 'Raw JSON' }).click();
    await page.waitForURL(/format=json/);
    const json = JSON.parse((await page.locator('body').textContent()) ?? '') as { title: string };
    expect(json.title).toBe(title);
  });

  it('keeps the list JSON one click away with the same parameters', async () => {
    await page.goto(`${server.origin}${MOUNT}/papers/?q=bert&items_per_page=10&page=2`);
    await page.getByRole('link', { name: 'Raw JSON' }).click();
    await page.waitForURL(/format=json/);
    const json = JSON.parse((await page.locator('body').textContent()) ?? '') as { count: number; results: unknown[]; next: string | null };
    expect(json.results).toHaveLength(10);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
  });

  it('is usable from the keyboard, with a visible focus ring', async () => {
    await page.goto(`${server.origin}${MOUNT}/papers/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(ring).toBe('solid');
    // Skip link, brand, raw JSON link, then the search box.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('q');
    await page.keyboard.type('attention');
    await Promise.all([page.waitForURL(/q=attention/), page.keyboard.press('Enter')]);
    expect(await count()).toBeGreaterThan(0);
  });

  it('shows error pages with their status', async () => {
    const response = await page.goto(`${server.origin}${MOUNT}/papers/no-such-paper/`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('404 Not found');
    await page.getByRole('link', { name: 'Back to all papers' }).click();
    expect(await count()).toBe(4000);
  });

  it('runs nothing from the catalogue or the query', async () => {
    const q = encodeURIComponent('"><script>alert(5)</script>');
    await page.goto(`${hostile.origin}${MOUNT}/papers/?q=&x=${q}`);
    await page.goto(`${hostile.origin}${MOUNT}/papers/?q=${q}`);
    expect(await page.getByLabel('Search papers').inputValue()).toBe('"><script>alert(5)</script>');
    await page.goto(`${hostile.origin}${MOUNT}/papers/`);
    expect(await page.locator('.results h2').textContent()).toBe('<img src=x onerror="window.__pwned=1;alert(1)"> $\\frac{a}{b} < c$ & "q"');
    expect(await page.getByRole('link', { name: 'Abstract' }).count()).toBe(0);
    await page.locator('.results h2 a').click();
    await page.waitForURL(/\/papers\/xss\/$/);
    expect(await page.locator('dl.fields').textContent()).toContain('javascript:window.__pwned=4;alert(4)');
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
