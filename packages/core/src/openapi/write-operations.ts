import { CONTRACT_HEADERS } from '../http/respond.js';
import { WRITE_ALLOW } from '../http/writes/write-routes.js';
import { componentRef, type JsonObject } from './json-schema.js';

/**
 * The write API in the OpenAPI document, present only when the handler has writes enabled
 * (`writeToken` or `authorize`): a read-only server's document stays as it was, and a
 * write-enabled one describes what it really answers. Each operation requires the `Token` or
 * `Bearer` scheme of `components.securitySchemes` (the `authorize` hook is documented as the same
 * schemes: what it checks is the host's business).
 */

const security = [{ tokenAuth: [] }, { bearerAuth: [] }];
const json = (schema: JsonObject, extra: JsonObject = {}): JsonObject => ({ 'application/json': { schema, ...extra } });

/** Responses every write may give besides its success. */
function writeErrors(contract: JsonObject): JsonObject {
  const error = (description: string, headers: JsonObject = contract): JsonObject => ({ description, headers, content: json(componentRef('schemas', 'Error')) });
  return {
    '401': error('No credentials (`Authentication credentials were not provided.`) or wrong ones (`Invalid token.`).', {
      ...contract,
      'WWW-Authenticate': { description: 'The scheme to use.', required: true, schema: { type: 'string', const: 'Token' } },
    }),
    '406': componentRef('responses', 'NotAcceptable'),
    '413': error('The body is over the server\'s `maxWriteBytes`, as received or decompressed.'),
    '415': error('A `Content-Type` the operation does not read, or a `Content-Encoding` other than gzip.'),
    '503': componentRef('responses', 'ServiceUnavailable'),
  };
}

/** `PUT` and `DELETE` of `/papers/{id}/`, `POST` of `/papers/`. */
export function writeOperations(contract: JsonObject): { list: JsonObject; retrieve: JsonObject } {
  const errors = writeErrors(contract);
  const badRequest = (description: string, schema: JsonObject): JsonObject => ({ description, headers: contract, content: json(schema) });
  return {
    retrieve: {
      put: {
        operationId: 'putPaper',
        summary: 'Store one paper: create it, or replace it whole',
        tags: ['papers'],
        security,
        requestBody: {
          required: true,
          description: 'The paper; `id` may be left out (the path gives it), the fields other than `title`, `url_abs` and `url_pdf` default to null (`abstract` "", `authors` []). Gzip `Content-Encoding` is accepted.',
          content: json(componentRef('schemas', 'PaperInput')),
        },
        responses: {
          '200': { description: 'Replaced: the stored paper.', headers: contract, content: json(componentRef('schemas', 'Paper')) },
          '201': { description: 'Created: the stored paper.', headers: contract, content: json(componentRef('schemas', 'Paper')) },
          '400': badRequest('Invalid JSON (`detail`), or the errors by field (an `id` that differs from the path included).', {
            anyOf: [componentRef('schemas', 'Error'), componentRef('schemas', 'PaperErrors')],
          }),
          '404': componentRef('responses', 'NotFound'),
          ...errors,
        },
      },
      delete: {
        operationId: 'deletePaper',
        summary: 'Delete one paper',
        tags: ['papers'],
        security,
        responses: {
          '204': { description: 'Deleted; no body.', headers: { Allow: contract['Allow']!, Vary: contract['Vary']! } },
          '404': componentRef('responses', 'NotFound'),
          ...errors,
        },
      },
    },
    list: {
      post: {
        operationId: 'writePapers',
        summary: 'Apply a batch of upserts and deletes, all or nothing',
        tags: ['papers'],
        security,
        requestBody: {
          required: true,
          description: 'JSON Lines (`application/x-ndjson`, gzip `Content-Encoding` accepted): each line a paper to store (as a `PUT` body, `id` required) or `{"delete": "<id>"}`; blank lines are skipped.',
          content: { 'application/x-ndjson': { schema: { type: 'string', description: 'One JSON object per line.' } } },
        },
        responses: {
          '200': { description: 'Applied, counted change by change.', headers: contract, content: json(componentRef('schemas', 'WriteResult')) },
          '400': badRequest('Invalid lines, each with its number (1-based, blank lines counted) and errors; nothing was applied.', componentRef('schemas', 'BulkErrors')),
          ...errors,
        },
      },
    },
  };
}

/** The schemas and security schemes the write operations refer to. */
export function writeComponents(paper: JsonObject): { schemas: JsonObject; securitySchemes: JsonObject; allow: JsonObject } {
  const fieldErrors: JsonObject = {
    type: 'object',
    description: 'Django REST Framework\'s errors by field: messages by field name (`authors` by item index), `non_field_errors` for the whole record.',
    additionalProperties: {
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      ],
    },
    minProperties: 1,
    examples: [{ title: ['This field is required.'] }],
  };
  return {
    schemas: {
      PaperInput: {
        ...paper,
        title: 'PaperInput',
        description: 'A paper as a write sends it: `title`, `url_abs` and `url_pdf` required; the others default to their absent value.',
        required: ['title', 'url_abs', 'url_pdf'],
      },
      PaperErrors: fieldErrors,
      BulkErrors: {
        type: 'object',
        required: ['detail', 'lines'],
        properties: {
          detail: { type: 'string', examples: ['2 invalid lines: nothing was applied.'] },
          lines: {
            type: 'array',
            description: 'The invalid lines, in order (at most 100; `detail` gives the total).',
            items: {
              type: 'object',
              required: ['line', 'errors'],
              properties: { line: { type: 'integer', minimum: 1 }, errors: componentRef('schemas', 'PaperErrors') },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
      WriteResult: {
        type: 'object',
        required: ['created', 'updated', 'deleted'],
        properties: {
          created: { type: 'integer', minimum: 0, description: 'Upserts of an id that was not in the catalogue.' },
          updated: { type: 'integer', minimum: 0, description: 'Upserts of an id that was.' },
          deleted: { type: 'integer', minimum: 0, description: 'Deletes of an id that was (an absent id counts nowhere).' },
        },
        additionalProperties: false,
      },
    },
    securitySchemes: {
      tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Authorization: Token <token>` (the Papers with Code client\'s scheme).' },
      bearerAuth: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <token>`, the same token.' },
    },
    allow: {
      description: 'The methods the path answers: the write methods included on the papers paths, since this server takes writes.',
      required: true,
      schema: { type: 'string', enum: [WRITE_ALLOW.list, WRITE_ALLOW.retrieve, CONTRACT_HEADERS.Allow!] },
    },
  };
}
