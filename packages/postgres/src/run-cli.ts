/**
 * The migrate/import commands as a script (no `bin`: the `paperlist` CLI exposes them):
 * `node node_modules/@paperlist/postgres/dist/run-cli.js migrate --database-url postgres://...`
 */
import { runPostgresCli } from './cli.js';

void runPostgresCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
