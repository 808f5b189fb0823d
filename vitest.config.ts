import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packageSource = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the workspace packages' TypeScript sources, never their builds.
    alias: [
      { find: /^@paperlist\/core\/sample$/, replacement: packageSource('core/src/sample.ts') },
      { find: /^@paperlist\/core\/node$/, replacement: packageSource('core/src/node/index.ts') },
      { find: /^@paperlist\/(core|express|koa|postgres|client|cli|conformance)$/, replacement: packageSource('$1/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'scripts/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/test/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
