import { definePaperSourceSuite } from '@paperlist/conformance';
import { describe, expect, it } from 'vitest';
import { createMemorySource, PaperlistOptionsError } from '../src/index.js';
import { createMemorySource as createNodeMemorySource } from '../src/node/index.js';

definePaperSourceSuite({ name: 'memory engine', create: async (papers, annotations) => createMemorySource(papers, annotations === undefined ? {} : { annotations }) });

definePaperSourceSuite({ name: 'memory engine on Node, no threads', create: async (papers, annotations) => createNodeMemorySource(papers, annotations === undefined ? {} : { annotations }) });

definePaperSourceSuite({
  name: 'memory engine on 2 query threads',
  create: async (papers, annotations) => createNodeMemorySource(papers, { threads: 2, ...(annotations === undefined ? {} : { annotations }) }),
});

describe("the edge entry's createMemorySource", () => {
  it('refuses query threads, naming the Node entry that has them', () => {
    const create = () => createMemorySource([], { threads: 2 } as never);
    expect(create).toThrow(PaperlistOptionsError);
    expect(create).toThrow("createMemorySource from '@paperlist/core/node'");
    expect(createMemorySource([], { threads: 0 } as never).size).toBe(0);
  });

  it('checks its budget as the Node one does', () => {
    expect(() => createMemorySource([], { budgetMs: 0 })).toThrow(/`budgetMs` must be a positive number/);
    expect(() => createNodeMemorySource([], { budgetMs: -1 })).toThrow(/`budgetMs` must be a positive number/);
  });
});
