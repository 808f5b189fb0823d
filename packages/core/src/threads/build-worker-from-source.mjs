// Runs the building thread from the TypeScript sources (tests, benchmarks, `--conditions=@paperlist/source`):
// the published package starts the compiled `build-worker.js` instead. tsx is a development dependency.
import { register } from 'tsx/esm/api';

register();
await import('./build-worker.ts');
