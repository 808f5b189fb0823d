import { describe, expect, it } from 'vitest';
import type { CatalogInput } from '../src/data/inputs.js';
import { createLogger } from '../src/log.js';
import { CatalogProgress, progressMode } from '../src/progress.js';

function stream(isTTY: boolean) {
  let text = '';
  const sink = {
    isTTY,
    columns: 120,
    write: (chunk: string) => ((text += chunk), true),
    // What cli-progress asks of a terminal.
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    clearScreenDown: () => true,
    on: () => sink,
    removeListener: () => sink,
    text: () => text,
  };
  return sink;
}

const input: CatalogInput = { path: '/data/papers.jsonl.gz', name: 'papers.jsonl.gz', size: 1_000_000, kind: 'json' };

describe('progress', () => {
  it('is a bar on a terminal, plain lines otherwise, and nothing with --quiet', () => {
    expect(progressMode(createLogger({ stream: stream(true) as never }))).toBe('bar');
    expect(progressMode(createLogger({ stream: stream(false) as never }))).toBe('plain');
    expect(progressMode(createLogger({ stream: stream(true) as never, quiet: true }))).toBe('none');
  });

  it('draws a bar with papers, papers/s and an ETA on a terminal', async () => {
    const terminal = stream(true);
    const log = createLogger({ stream: terminal as never });
    const progress = new CatalogProgress('bar', log, [input]);
    progress.fileStart(input, 0);
    for (let i = 1; i <= 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      progress.update({ input, index: 0, records: i * 10_000, bytes: i * 150_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    progress.warn('skipped papers.jsonl.gz line 7: missing field "id"');
    progress.finish({ records: 66_000, skipped: 1 });
    const text = terminal.text();
    expect(text).toMatch(/Loading papers\.jsonl\.gz \[[█░]+\] \d+% \| [\d,]+ papers \| [\d,]+ papers\/s \| ETA \S+/);
    expect(text).toContain('paperlist: warning: skipped papers.jsonl.gz line 7: missing field "id"\n');
    expect(text).toMatch(/Loading papers\.jsonl\.gz \[█+\] 100% \| 66,000 papers/);
    expect(text).toMatch(/paperlist: loaded 66,000 papers from papers\.jsonl\.gz in \S+ \([\d,]+ papers\/s\); skipped 1 invalid records\n$/);
  });

  it('writes a plain line per tenth of the input, with an ETA', () => {
    const pipe = stream(false);
    const progress = new CatalogProgress('plain', createLogger({ stream: pipe as never }), [input]);
    progress.fileStart(input, 0);
    progress.update({ input, index: 0, records: 10_000, bytes: 50_000 });
    progress.update({ input, index: 0, records: 20_000, bytes: 120_000 });
    progress.update({ input, index: 0, records: 30_000, bytes: 150_000 });
    progress.update({ input, index: 0, records: 70_000, bytes: 1_000_000 });
    progress.finish({ records: 70_000, skipped: 0 });
    const lines = pipe.text().trimEnd().split('\n');
    expect(lines[0]).toBe('paperlist: loading papers.jsonl.gz: 1.0 MB');
    expect(lines[1]).toMatch(/^paperlist: loading papers\.jsonl\.gz: 20,000 papers, 12% read, [\d,]+ papers\/s, ETA \S+$/);
    expect(lines[2]).toMatch(/^paperlist: loaded 70,000 papers from papers\.jsonl\.gz in /);
    expect(lines).toHaveLength(3);
  });
});
