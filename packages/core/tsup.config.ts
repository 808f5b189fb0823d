import { defineConfig } from 'tsup';

export default defineConfig({
  // The query, building and tokenizing threads are entries of their own: `engine-worker.js`, `build-worker.js` and `tokenize-worker.js` (or `.cjs`) beside the bundle.
  entry: {
    index: 'src/index.ts',
    sample: 'src/sample.ts',
    node: 'src/node/index.ts',
    'engine-worker': 'src/threads/engine-worker.ts',
    'build-worker': 'src/threads/build-worker.ts',
    'tokenize-worker': 'src/threads/tokenize-worker.ts',
  },
  format: ['esm', 'cjs'],
  // Resolve workspace packages to their published types, not their sources.
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // `src/sample.ts` and the pool locate files with `import.meta.url`, which the CJS build needs shimmed.
  shims: true,
  // Shared chunks in the CommonJS build too (esbuild splits only ESM by default): `@paperlist/core`
  // and `@paperlist/core/node` then hold one copy of each class, so `instanceof` holds across them.
  splitting: true,
});
