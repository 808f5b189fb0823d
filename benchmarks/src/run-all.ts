/**
 * `pnpm bench`: the in-memory engine (against MiniSearch, FlexSearch and the naive scan), the
 * HTTP adapters (against a prebuilt body), and PostgreSQL when its benchmark is present.
 *
 *   pnpm bench -- --only engine --size 1m
 *   pnpm bench -- --only http --duration 5
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './args.js';

const args = parseArgs(process.argv.slice(2));
console.log(`# paperlist benchmarks\n\nNode ${process.version}, ${(await import('node:os')).cpus().length} CPUs (${(await import('node:os')).cpus()[0]?.model ?? '?'}), ${Math.round((await import('node:os')).totalmem() / 2 ** 30)} GiB, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);

if (args.only.has('engine')) {
  const { runEngineBench } = await import('./engine.bench.js');
  await runEngineBench(args);
}
if (args.only.has('adversarial')) {
  const { runAdversarialBench } = await import('./adversarial.bench.js');
  await runAdversarialBench(args);
}
if (args.only.has('extensions')) {
  const { runExtensionsBench } = await import('./extensions.bench.js');
  await runExtensionsBench(args);
}
if (args.only.has('writes')) {
  const { runWritesBench } = await import('./writes.bench.js');
  await runWritesBench(args);
}
if (args.only.has('http')) {
  const { runHttpBench } = await import('./http.bench.js');
  await runHttpBench(args);
}
if (args.only.has('load')) {
  const { runLoadBench } = await import('./load.bench.js');
  await runLoadBench(args);
}
if (args.only.has('sql-mode')) {
  const { runSqlModeBench } = await import('./sql-mode.bench.js');
  await runSqlModeBench(args.duration);
}
if (args.only.has('memory-mode')) {
  const { runMemoryModeBench } = await import('./memory-mode.bench.js');
  await runMemoryModeBench(args.duration);
}
if (args.only.has('postgres')) {
  const file = fileURLToPath(new URL('./postgres.bench.ts', import.meta.url));
  if (existsSync(file)) {
    const { runPostgresBench } = (await import('./postgres.bench.js')) as { runPostgresBench(): Promise<void> };
    await runPostgresBench();
  } else {
    console.log('\n## PostgreSQL\n\nskipped: benchmarks/src/postgres.bench.ts is not there');
  }
}
