import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

/**
 * No package's sources import each other in a circle: a cycle makes module load order matter
 * (a value read before its module finished evaluating is `undefined`) and hides which file
 * depends on which. Type-only imports count too; they are still edges a reader has to follow.
 */
const packages = ['core', 'cli', 'postgres', 'express', 'koa', 'client', 'conformance'];

describe('import cycles', () => {
  it.each(packages)('packages/%s/src has none', async (name) => {
    const root = fileURLToPath(new URL(`../packages/${name}/src`, import.meta.url));
    const graph = await madge(root, {
      fileExtensions: ['ts'],
      excludeRegExp: [/\.test\.ts$/],
      detectiveOptions: { ts: { skipTypeImports: false } },
    });
    expect(graph.circular()).toEqual([]);
  });
});
