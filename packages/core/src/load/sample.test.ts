import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSamplePapers, SAMPLE_CATALOG_PATH } from '../sample.js';

describe('the shipped sample', () => {
  it('is an absolute path to an existing file', () => {
    expect(isAbsolute(SAMPLE_CATALOG_PATH)).toBe(true);
    expect(SAMPLE_CATALOG_PATH).toMatch(/[/\\]data[/\\]papers-sample\.jsonl\.gz$/);
    expect(existsSync(SAMPLE_CATALOG_PATH)).toBe(true);
  });

  it('loads 4,000 valid papers with unique ids, once', async () => {
    const papers = await loadSamplePapers();
    expect(papers).toHaveLength(4000);
    expect(new Set(papers.map((p) => p.id)).size).toBe(4000);
    const attention = papers.find((p) => p.id === 'attention-is-all-you-need');
    expect(attention?.arxiv_id).toBe('1706.03762');
    expect(await loadSamplePapers()).toBe(papers);
  });
});
