// `node dist/sample-count.js`: the embedded sample loaded from a CommonJS TypeScript build.
import { createMemorySource, toPaper, type Paper } from '@paperlist/core';
import { loadSamplePapers, SAMPLE_CATALOG_PATH } from '@paperlist/core/sample';

async function main(): Promise<void> {
  const papers: Paper[] = await loadSamplePapers();
  const source = createMemorySource(papers);
  const record = await source.get('attention-is-all-you-need');
  const title = record === null ? null : toPaper(record).title;
  console.log(JSON.stringify({ papers: papers.length, path: SAMPLE_CATALOG_PATH, title }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
