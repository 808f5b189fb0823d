import { defineConfig } from 'tsup';

export default defineConfig({
  // index: the library; run-cli: the migrate/import commands as a script.
  entry: ['src/index.ts', 'src/run-cli.ts'],
  format: ['esm', 'cjs'],
  // Resolve workspace packages to their published types, not their sources.
  dts: { entry: 'src/index.ts', compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
