import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_MAYBE, CODE_NO, CODE_YES, FREQUENT, Successors, successorPlan } from '../../src/engine/successors.js';

/** Successor codes: a set of words read as codes is never wrong about "yes" or "no". */
describe('successor codes', () => {
  const V = 500;
  const frequent = Uint32Array.from({ length: FREQUENT }, (_, i) => 3 + i * 7).sort();
  const successors = new Successors(frequent, new Uint32Array(0), new Uint32Array(1), new Uint8Array(0));

  it('keeps the vocabulary order, own codes odd', () => {
    let previous = -1;
    for (let w = 0; w < V; w++) {
      const code = successors.codeOf(w);
      expect(code).toBeGreaterThanOrEqual(previous);
      expect((code & 1) === 1).toBe(frequent.includes(w));
      previous = code;
    }
  });

  it('classifies any set of words exactly: yes codes hold only its words, no codes none, maybe words listed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(V - 1), { maxLength: 300 }), fc.option(fc.nat(V - 1)), (list, forced) => {
        const words = Uint32Array.from(list);
        const maybe = forced === null ? -1 : successors.codeOf(forced);
        const { classes, maybeWords } = successors.classify(words, V, maybe);
        const inSet = new Set(list);
        for (let w = 0; w < V; w++) {
          const kind = classes[successors.codeOf(w)];
          if (kind === CODE_YES) expect(inSet.has(w)).toBe(true);
          if (kind === CODE_NO) expect(inSet.has(w)).toBe(false);
          if (kind === CODE_MAYBE) expect(maybeWords.includes(w)).toBe(inSet.has(w));
        }
        if (maybe >= 0 && list.some((w) => successors.codeOf(w) === maybe)) expect(classes[maybe]).toBe(CODE_MAYBE);
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('plans the commonest words, anchors only those common enough', () => {
    const tf = Uint32Array.from({ length: 200 }, (_, w) => (w % 10 === 0 ? 1000 + w : w));
    const plan = successorPlan(tf, 100);
    expect(plan.frequent.length).toBe(FREQUENT);
    expect(Array.from(plan.anchors)).toEqual(Array.from({ length: 16 }, (_, i) => 40 + i * 10));
    expect(plan.codesAt[plan.anchors.length]).toBe(Array.from(plan.anchors).reduce((sum, w) => sum + tf[w]!, 0));
  });
});
