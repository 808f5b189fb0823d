#!/usr/bin/env node
import { main } from './program.js';

// `pnpm start -- --port 9000` passes the `--` on to the script: drop it there.
// `paperlist validate big.jsonl | head`: a closed pipe is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
if (process.env['npm_lifecycle_event'] !== undefined && argv[1] === '--') argv.splice(1, 1);
// Under the workspace's own `pnpm start`, the script runs in packages/cli: resolve paths against where
// pnpm was started. Anyone else's npm script runs in its own package, where its paths are written from.
const ownScript = process.env['npm_lifecycle_event'] !== undefined && process.env['npm_package_name'] === '@paperlist/cli';
const cwd = ownScript ? (process.env['INIT_CWD'] ?? process.cwd()) : process.cwd();

const code = await main(argv, { cwd });
process.exitCode = code;
// Let stdout/stderr drain, but do not wait for stray handles (a pool, a timer) to close by themselves.
setTimeout(() => process.exit(code), 500).unref();
