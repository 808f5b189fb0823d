import { TypeCompiler } from '@sinclair/typebox/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAPER_FIELDS } from './paper.js';
import { isPaper } from './paper-check.js';
import { PaperSchema, validatePaper } from './paper-schema.js';

// The reference: TypeBox's compiled check of the schema (code generation is fine in a test).
const compiled = TypeCompiler.Compile(PaperSchema);
const schemaAccepts = (value: unknown) => compiled.Check(value);

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', 'a b', 'a/b', 'x\u0001', 'ok-id', '\u0085', '\u00a0', 'é', '2020-02-29', '2019-02-29', '2019-13-01', '1999-12-31'),
);
const anyValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean(), fc.array(text, { maxLength: 2 }), fc.constant({}), fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 2 }));

const validDate = fc
  .tuple(fc.integer({ min: 1890, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const someDate = fc
  .tuple(fc.integer({ min: 1890, max: 2030 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const validPaper = fc.record({
  id: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/),
  arxiv_id: fc.option(text),
  nips_id: fc.option(text),
  url_abs: text,
  url_pdf: text,
  title: text,
  abstract: text,
  authors: fc.array(text, { maxLength: 3 }),
  published: fc.option(validDate),
  conference: fc.option(text),
  conference_url_abs: fc.option(text),
  conference_url_pdf: fc.option(text),
  proceeding: fc.option(text),
});

type Change = { kind: 'set'; field: string; value: unknown } | { kind: 'drop'; field: string } | { kind: 'add'; field: string };
const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), field: fc.constantFrom(...PAPER_FIELDS), value: fc.oneof(anyValue, someDate) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...PAPER_FIELDS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add' as const), field: fc.constantFrom('extra', 'Title', 'published ') }) },
);

/** Papers, most of them changed a little: a field set to another value, dropped, or one added. */
const nearPaper = fc.tuple(validPaper, fc.array(change, { maxLength: 2 })).map(([paper, changes]) => {
  const copy: Record<string, unknown> = { ...paper };
  for (const c of changes) {
    if (c.kind === 'set') copy[c.field] = c.value;
    else if (c.kind === 'drop') delete copy[c.field];
    else copy[c.field] = 1;
  }
  return copy;
});

describe('the hand-written paper check', () => {
  it('accepts exactly what the compiled PaperSchema accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: nearPaper }, { weight: 1, arbitrary: anyValue }), (value) => {
        const expected = schemaAccepts(value);
        if (expected) accepted++;
        expect(isPaper(value)).toBe(expected);
        expect(validatePaper(value).ok).toBe(expected);
      }),
      { numRuns: 5_000 },
    );
    // Both sides of the boundary were tried.
    expect(accepted).toBeGreaterThan(50);
    expect(accepted).toBeLessThan(4_500);
  });

  it('gives a reason naming a field for every record it refuses', () => {
    fc.assert(
      fc.property(nearPaper, (value) => {
        const result = validatePaper(value);
        if (!result.ok) expect(result.reason).toMatch(/^(missing field|unknown field|field ")/);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses an extra property even when it is not enumerable', () => {
    const paper = Object.fromEntries(PAPER_FIELDS.map((field) => [field, field === 'authors' ? [] : field === 'id' ? 'x' : null]));
    Object.assign(paper, { url_abs: '', url_pdf: '', title: '', abstract: '' });
    expect(validatePaper(paper).ok).toBe(true);
    Object.defineProperty(paper, 'hidden', { value: 1, enumerable: false });
    expect(validatePaper(paper)).toEqual({ ok: false, reason: 'unknown field "hidden"' });
    expect(schemaAccepts(paper)).toBe(false);
  });
});
