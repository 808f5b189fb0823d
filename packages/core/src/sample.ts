import { fileURLToPath } from 'node:url';
import { loadPapers } from './load/index.js';
import type { Paper } from './paper.js';

// `src/sample.ts`, `dist/sample.js` and `dist/sample.cjs` all sit one directory below the package root.
// In the CJS build tsup's shims stand in for `import.meta.url`.
/**
 * Absolute path of the sample catalogue shipped with the package: 4,000 real papers as gzip-compressed
 * JSON Lines (arXiv metadata, CC0, via Geiger 2020, doi:10.5281/zenodo.1463242; ACL Anthology,
 * https://aclanthology.org, CC BY 4.0). See `data/README.md`.
 */
export const SAMPLE_CATALOG_PATH: string = fileURLToPath(new URL('../data/papers-sample.jsonl.gz', import.meta.url));

let cached: Promise<Paper[]> | undefined;

/**
 * The papers of the shipped sample catalogue ({@link SAMPLE_CATALOG_PATH}), loaded and validated once;
 * later calls return the same array, which callers must not modify.
 */
export function loadSamplePapers(): Promise<Paper[]> {
  if (cached === undefined) {
    const loading = loadPapers(SAMPLE_CATALOG_PATH).then((result) => result.papers);
    cached = loading;
    loading.catch(() => {
      if (cached === loading) cached = undefined; // let a later call try again
    });
  }
  return cached;
}
