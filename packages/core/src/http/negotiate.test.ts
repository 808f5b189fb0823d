import { describe, expect, it } from 'vitest';
import { negotiateRepresentation } from './negotiate.js';

describe('negotiateRepresentation', () => {
  it.each<[string | undefined, string | undefined, string | null]>([
    [undefined, undefined, 'json'],
    ['', undefined, 'json'],
    ['*/*', undefined, 'json'],
    ['application/json', undefined, 'json'],
    ['application/*', undefined, 'json'],
    ['text/html', undefined, 'html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', undefined, 'html'],
    ['application/json;q=0.5, text/html;q=0.5', undefined, 'json'],
    ['application/xml', undefined, null],
    ['image/png, text/plain', undefined, null],
    ['application/json;q=0', undefined, null],
    ['*/*;q=0, application/json', undefined, 'json'],
    ['garbage', undefined, 'json'],
    ['application/xml', 'json', 'json'],
    ['application/json', 'html', 'html'],
    [undefined, 'xml', 'unknown-format'],
  ])('Accept %j format %j -> %j', (accept, format, expected) => {
    expect(negotiateRepresentation(accept, format)).toBe(expected);
  });

  it.each<[string | undefined, string | undefined, boolean, string | null]>([
    ['application/x-ndjson', undefined, true, 'jsonl'],
    ['application/x-ndjson', undefined, false, null],
    ['application/x-ndjson, application/json;q=0.9', undefined, true, 'jsonl'],
    ['application/x-ndjson;q=0.5, application/json', undefined, true, 'json'],
    ['*/*', undefined, true, 'json'],
    ['application/*', undefined, true, 'json'],
    ['text/html', 'jsonl', true, 'jsonl'],
    [undefined, 'jsonl', false, 'unknown-format'],
  ])('with the export (%s, format %j, jsonl %j) -> %j', (accept, format, jsonl, expected) => {
    expect(negotiateRepresentation(accept, format, { jsonl })).toBe(expected);
  });
});
