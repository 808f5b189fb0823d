export { readPapers, PROGRESS_INTERVAL } from './read-papers.js';
export { loadPapers } from './load-papers.js';
export { PaperLoadError } from './paper-load-error.js';
export type { LoadProblem, LoadProgress, LoadResult, PaperInput, ReadPapersOptions } from './types.js';
export { detectFormat, type CatalogFormat } from './detect-format.js';
