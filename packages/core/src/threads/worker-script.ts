/**
 * Where the query thread's script is: beside this module once built (`engine-worker.js`, or
 * `.cjs` in the CommonJS build), or a bootstrap that loads the TypeScript sources through tsx
 * when this module itself runs from them.
 */
export function engineWorkerScript(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('./engine-worker-from-source.mjs', here);
  return new URL(here.endsWith('.cjs') ? './engine-worker.cjs' : './engine-worker.js', here);
}
