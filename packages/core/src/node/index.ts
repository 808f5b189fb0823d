/**
 * @paperlist/core/node: the parts of paperlist that need Node.js itself: the papers API as a
 * `node:http` request listener; catalogues read from files and streams (gzip or plain); the
 * memory source with query threads, streamed building and snapshots on disk. Everything else,
 * the handlers and the edge-safe memory source included, is in `@paperlist/core`.
 */
export { createRequestListener, writeResponse, type PapersRequestListener, type RequestListenerOptions, type TrustProxy, type WriteResponseOptions } from './request-listener.js';

export {
  createMemorySource,
  createMemorySourceFromStream,
  openMemorySource,
  DEFAULT_MAX_QUEUE,
  type IndexedMemorySource,
  type MemoryStreamOptions,
  type NodeMemorySourceOptions,
  type PaperStream,
} from '../memory/indexed-memory-source.js';
export { SnapshotError } from '../snapshot/snapshot-file.js';

export {
  readPapers,
  loadPapers,
  PaperLoadError,
  detectFormat,
  type PaperInput,
  type ReadPapersOptions,
  type LoadProblem,
  type LoadProgress,
  type LoadResult,
  type CatalogFormat,
} from '../load/index.js';
export {
  readCatalog,
  readPwcPapers,
  createPaperAcceptor,
  IdRegistry,
  type ReadCatalogOptions,
  type PaperAcceptor,
  type PaperAcceptorOptions,
} from '../formats/index.js';
