import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/sample.ts'],
  format: ['esm', 'cjs'],
  // Resolve workspace packages to their published types, not their sources.
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // `src/sample.ts` locates the shipped data with `import.meta.url`, which the CJS build needs shimmed.
  shims: true,
});
