import { DEFAULT_ORDER, ORDER_FIELDS, formatOrderKeys } from '../ordering/parse-ordering.js';
import { LIST_QUERY_PARAMETERS, type ListQueryParameter } from '../query/parse-list-query.js';
import { FORMAT_VALUES } from '../http/negotiate.js';
import { MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from '../text/parse-search.js';
import type { JsonObject } from './json-schema.js';

/** Page sizes the document states. */
export interface PageSizes {
  pageSize: number;
  maxPageSize: number;
}

const code = (text: string) => `\`${text}\``;

/**
 * The OpenAPI description of each list parameter, keyed by the names the parser reads
 * ({@link LIST_QUERY_PARAMETERS}); limits and fields come from the parser's own constants.
 */
function describeParameters(sizes: PageSizes): Record<ListQueryParameter, { description: string; schema: JsonObject }> {
  const fields = ORDER_FIELDS.map(code).join(', ');
  return {
    q: {
      description:
        `Search. Split on whitespace and commas; "double quotes" group a phrase. Every term must match (AND) in the title, ` +
        `abstract or authors, case- and accent-insensitively, as the start of a word. At most ${MAX_QUERY_LENGTH} characters ` +
        `and ${MAX_QUERY_TERMS} terms (else 400). Without ${code('ordering')}, results are by relevance.`,
      schema: { type: 'string', maxLength: MAX_QUERY_LENGTH, examples: ['attention transformer', '"language model" gpt-4', '1706.03762'] },
    },
    ordering: {
      description:
        `Comma-separated fields from ${fields}, each optionally prefixed with ${code('-')} for descending. Unknown fields ` +
        `are ignored; nothing valid left means the default (relevance with ${code('q')}, else ` +
        `${code(formatOrderKeys(DEFAULT_ORDER))}). ${code('id')} ascending is always the last tie-breaker. Nulls sort last ` +
        `ascending and first descending.`,
      schema: {
        type: 'string',
        examples: ORDER_FIELDS.flatMap((field) => [field, `-${field}`]).concat(['-published,title']),
      },
    },
    page: {
      description: `1-based page number, or ${code('last')}. Past the last page, or not a positive integer: 404 "Invalid page.".`,
      schema: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'last' }], default: 1 },
    },
    items_per_page: {
      description:
        `Results per page, default ${sizes.pageSize}. Values over ${sizes.maxPageSize} are capped; zero, negative or not ` +
        `a number gives the default.`,
      schema: { type: 'integer', minimum: 1, maximum: sizes.maxPageSize, default: sizes.pageSize },
    },
    arxiv_id: {
      description: 'Only the paper with exactly this arXiv id.',
      schema: { type: 'string', examples: ['1706.03762'] },
    },
    title: { description: 'Only papers whose title contains this, case-insensitively.', schema: { type: 'string' } },
    abstract: { description: 'Only papers whose abstract contains this, case-insensitively.', schema: { type: 'string' } },
  };
}

/** The list endpoint's query parameters, in the parser's order. */
export function listParameters(sizes: PageSizes): JsonObject[] {
  const described = describeParameters(sizes);
  return LIST_QUERY_PARAMETERS.map((name) => ({ name, in: 'query', required: false, ...described[name] }));
}

/** `format`: overrides the `Accept` header on every papers path. */
export function formatParameter(): JsonObject {
  return {
    name: 'format',
    in: 'query',
    required: false,
    description:
      `Representation, overriding ${code('Accept')}: ${code('json')}, or ${code('html')} (also ${code('api')}) for the ` +
      `browsable page. Any other value: 404.`,
    schema: { type: 'string', enum: Object.keys(FORMAT_VALUES) },
  };
}
