import { defineConfig } from 'tsup';

export default defineConfig({
  // The merge thread is an entry of its own: `merge-worker.js` (or `.cjs`) beside the bundle.
  entry: { index: 'src/index.ts', 'merge-worker': 'src/merge-thread/merge-worker.ts' },
  format: ['esm', 'cjs'],
  // Resolve workspace packages to their published types, not their sources.
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The pool locates the worker with `import.meta.url`, which the CJS build needs shimmed.
  shims: true,
});
