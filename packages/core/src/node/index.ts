/**
 * @paperlist/core/node: the parts of paperlist that need Node.js itself. The papers API as a
 * `node:http` request listener.
 */
export { createRequestListener, writeResponse, type PapersRequestListener, type RequestListenerOptions, type TrustProxy } from './request-listener.js';
