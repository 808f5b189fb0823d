/**
 * @paperlist/cli: the `paperlist` command (`serve`, `import`, `validate`) and the pieces it is
 * made of, for programs that want the same server or loaders.
 */
export { main, type CliIo } from './program.js';
export { EXIT, EXIT_CODES_HELP, type ExitCode } from './exit-codes.js';
export { CliError } from './cli-error.js';
export { createApp, type AppOptions, type ServerState } from './server/app.js';
export { listen, closeGracefully } from './server/http-server.js';
export { resolveInputs, sampleInput, type CatalogInput } from './data/inputs.js';
export { readCatalogFile, readCatalogFiles, type ReadFileOptions, type ReadFilesOptions, type FilesProgress } from './data/read-files.js';
export { readParquetPapers, type ReadParquetOptions } from './data/parquet.js';
export { loadCatalog, type LoadCatalogOptions } from './data/load-catalog.js';
