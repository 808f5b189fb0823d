/**
 * Where the merge thread's script is: beside the bundle once built (`merge-worker.js`, or
 * `.cjs` in the CommonJS build), or a bootstrap that loads the TypeScript sources through tsx
 * when this module itself runs from them (tests, `@paperlist/source`).
 */
export function mergeWorkerScript(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('./merge-worker-from-source.mjs', here);
  return new URL(here.endsWith('.cjs') ? './merge-worker.cjs' : './merge-worker.js', here);
}
