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
});
