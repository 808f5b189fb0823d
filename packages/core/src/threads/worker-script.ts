/**
 * Where a worker thread's script is: beside this module once built (`<name>.js`, or `.cjs` in
 * the CommonJS build), or a bootstrap that loads the TypeScript sources through tsx when this
 * module itself runs from them.
 */
function workerScript(name: 'engine-worker' | 'build-worker' | 'tokenize-worker'): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL(`./${name}-from-source.mjs`, here);
  return new URL(here.endsWith('.cjs') ? `./${name}.cjs` : `./${name}.js`, here);
}

/** The query thread's script (see `engine-pool.ts`). */
export function engineWorkerScript(): URL {
  return workerScript('engine-worker');
}

/** The building thread's script (see `memory/build-on-thread.ts`). */
export function buildWorkerScript(): URL {
  return workerScript('build-worker');
}

/** The tokenizing thread's script (see `memory/parallel-build.ts`). */
export function tokenizeWorkerScript(): URL {
  return workerScript('tokenize-worker');
}
