/**
 * The shared test suites of paperlist. `defineHttpConformanceSuite` runs, unchanged, against
 * every HTTP adapter over real HTTP; a new adapter is done when it passes.
 */
export { defineHttpConformanceSuite, type HttpConformanceTarget, type ConformanceServerOptions } from './http-conformance-suite.js';
export { fixturePapers } from './fixture-papers.js';
export { rawRequest, pathOf, type RawRequestOptions, type RawResponse } from './raw-request.js';
export { serveFetchHandler, type RunningServer } from './serve-fetch-handler.js';
/** `definePaperSourceSuite` runs, unchanged, against every PaperSource. */
export { definePaperSourceSuite, queryFor, type SourceSuiteTarget } from './source-suite.js';
export { SOURCE_FIXTURE } from './source-fixture.js';
