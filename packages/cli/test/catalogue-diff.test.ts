import { describe, expect, it } from 'vitest';
import { createMemorySource, type AnnotationMap, type Paper, type PaperAnnotations, type PaperChange } from '@paperlist/core';
import { catalogueFingerprints, diffCatalogue, withoutIds } from '../src/state/catalogue-diff.js';
import { paper } from './helpers.js';

const base = [paper('a', { title: 'Alpha' }), paper('b', { title: 'Beta' }), paper('c', { title: 'Gamma' })];
const attention: PaperAnnotations = {
  tasks: ['Machine Translation'],
  methods: [
    {
      // Keys in another order than the dump's: compared by value.
      source_url: null,
      name: 'Transformer',
      full_name: 'Transformer',
      description: 'An architecture based on attention.',
      introduced_year: 2017,
      source_title: null,
      code_snippet_url: null,
    },
  ],
};

async function* stream(papers: readonly Paper[]): AsyncGenerator<Paper> {
  yield* papers;
}

/** The change list as short strings: `+id` upsert, `-id` delete. */
function summary(changes: readonly PaperChange[]): string[] {
  return changes.map((change) => (change.op === 'upsert' ? `+${change.paper.id}` : `-${change.id}`));
}

describe('diffCatalogue', () => {
  const cases: { name: string; now?: AnnotationMap; next: Paper[]; nextNotes?: AnnotationMap; changes: string[]; annotationsChanged?: boolean }[] = [
    { name: 'the same papers: nothing', next: base, changes: [] },
    { name: 'the same papers in another order: nothing', next: [...base].reverse(), changes: [] },
    { name: 'a changed title: that paper', next: [base[0]!, paper('b', { title: 'Beta, corrected' }), base[2]!], changes: ['+b'] },
    { name: 'a changed author list: that paper', next: [base[0]!, base[1]!, { ...base[2]!, authors: ['Ada Lovelace', 'Alan Turing'] }], changes: ['+c'] },
    { name: 'a new paper and a gone one', next: [base[0]!, base[1]!, paper('d')], changes: ['+d', '-c'] },
    { name: 'no papers: every one deleted', next: [], changes: ['-a', '-b', '-c'] },
    {
      name: 'unchanged tasks and methods: nothing',
      now: new Map([['a', attention]]),
      next: base,
      nextNotes: new Map([['a', { tasks: ['Machine Translation', 'machine translation'], methods: [...attention.methods, ...attention.methods] }]]),
      changes: [],
    },
    { name: 'tasks added to a paper: a rebuild', next: base, nextNotes: new Map([['b', attention]]), changes: [], annotationsChanged: true },
    { name: 'tasks taken from a paper: a rebuild', now: new Map([['a', attention]]), next: base, changes: [], annotationsChanged: true },
    { name: 'a new paper with tasks: a rebuild', next: [...base, paper('d')], nextNotes: new Map([['d', attention]]), changes: ['+d'], annotationsChanged: true },
    { name: 'a gone paper with tasks: deleted, no rebuild', now: new Map([['c', attention]]), next: base.slice(0, 2), changes: ['-c'] },
  ];
  it.each(cases)('$name', async ({ now, next, nextNotes, changes, annotationsChanged }) => {
    const source = createMemorySource(base, now === undefined ? {} : { annotations: now });
    const diff = await diffCatalogue(stream(next), nextNotes ?? new Map(), await catalogueFingerprints(source));
    expect(summary(diff.changes)).toEqual(changes);
    expect(diff.annotationsChanged).toBe(annotationsChanged ?? false);
    if (!diff.annotationsChanged) {
      // Applied, the changes give exactly the next catalogue.
      await source.write(diff.changes);
      const again = await diffCatalogue(stream(next), nextNotes ?? new Map(), await catalogueFingerprints(source));
      expect(again.changes).toEqual([]);
    }
  });

  it('walks a catalogue larger than one page of the walk', async () => {
    const papers = Array.from({ length: 4321 }, (_, i) => paper(`p${String(i).padStart(5, '0')}`));
    const source = createMemorySource(papers);
    const fingerprints = await catalogueFingerprints(source);
    expect(fingerprints.size).toBe(4321);
    const diff = await diffCatalogue(stream(papers.slice(1)), new Map(), fingerprints);
    expect(summary(diff.changes)).toEqual(['-p00000']);
  });

  it('refuses a duplicate id, as a build does', async () => {
    const source = createMemorySource(base);
    await expect(diffCatalogue(stream([...base, base[0]!]), new Map(), await catalogueFingerprints(source))).rejects.toThrow(/duplicate paper id "a"/);
  });
});

describe('withoutIds', () => {
  it('drops the upserts and deletes of the ids given, keeps the rest in order', () => {
    const changes: PaperChange[] = [{ op: 'upsert', paper: paper('a') }, { op: 'delete', id: 'b' }, { op: 'upsert', paper: paper('c') }, { op: 'delete', id: 'd' }];
    expect(summary(withoutIds(changes, new Map([['a', null], ['d', paper('d')]])))).toEqual(['-b', '+c']);
    expect(withoutIds(changes, new Map())).toEqual(changes);
  });
});
