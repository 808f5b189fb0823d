// Runs the merge thread from the TypeScript sources (tests, benchmarks, `--conditions=@paperlist/source`):
// the published package starts the compiled `merge-worker.js` instead. tsx is a development dependency.
import { register } from 'tsx/esm/api';

register();
await import('./merge-worker.ts');
