import { Option } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvironmentCommand } from '../src/environment-options.js';
import { killLeftovers, paper, servedUrl, startCli, tempDir, writeJsonLines, getJson } from './helpers.js';

/** Parses `argv` with a command like `serve`'s, its options taken from `env`, and answers the options. */
function parse(argv: string[], env: NodeJS.ProcessEnv): Record<string, unknown> {
  let seen: Record<string, unknown> = {};
  const command = new EnvironmentCommand('serve', { '--host': 'HOST' }, env)
    .exitOverride()
    .addOption(new Option('-p, --port <port>').env('PORT').argParser(Number).default(8000))
    .option('--host <host>', 'address', '127.0.0.1')
    .option('--max-queue <n>')
    .option('--access-log')
    .option('-d, --data <file...>')
    .addOption(new Option('--debug-delay <ms>').hideHelp())
    .action((options: Record<string, unknown>) => {
      seen = options;
    });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    command.parse(argv, { from: 'user' });
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
    Object.assign(process.env, saved);
  }
  return seen;
}

describe('serve options from the environment', () => {
  it.each([
    { env: {}, argv: [], want: { port: 8000, host: '127.0.0.1' } },
    { env: { PORT: '9000', HOST: '0.0.0.0' }, argv: [], want: { port: 9000, host: '0.0.0.0' } },
    { env: { PORT: '9000', HOST: '0.0.0.0' }, argv: ['--port', '7000', '--host', '::'], want: { port: 7000, host: '::' } },
    { env: { PAPERLIST_MAX_QUEUE: '12' }, argv: [], want: { maxQueue: '12' } },
    { env: { PAPERLIST_ACCESS_LOG: '1' }, argv: [], want: { accessLog: true } },
    { env: { PAPERLIST_ACCESS_LOG: 'false' }, argv: [], want: { accessLog: undefined } },
    { env: { PAPERLIST_ACCESS_LOG: '0' }, argv: [], want: { accessLog: undefined } },
    { env: { PAPERLIST_DATA: 'a.jsonl, b.jsonl' }, argv: [], want: { data: ['a.jsonl', 'b.jsonl'] } },
    { env: { PAPERLIST_DATA: 'a.jsonl,b.jsonl' }, argv: ['--data', 'c.jsonl'], want: { data: ['c.jsonl'] } },
    { env: { PAPERLIST_DEBUG_DELAY: '5' }, argv: [], want: { debugDelay: undefined } },
  ])('$env with $argv', ({ env, argv, want }) => {
    const options = parse(argv, env);
    for (const [key, value] of Object.entries(want)) expect(options[key], key).toEqual(value);
  });
});

describe('paperlist serve configured by the environment', () => {
  afterEach(() => killLeftovers());

  it('reads PORT, HOST and PAPERLIST_<FLAG>', async () => {
    const dir = await tempDir();
    try {
      const a = await writeJsonLines(dir.file('a.jsonl'), [paper('a1'), paper('a2')]);
      const b = await writeJsonLines(dir.file('b.jsonl'), [paper('b1')]);
      const cli = startCli(['serve'], { env: { PORT: '0', HOST: '127.0.0.1', PAPERLIST_DATA: `${a},${b}`, PAPERLIST_WORKERS: '1', PAPERLIST_MOUNT: '/v2' } });
      await cli.waitFor(/serving 3 papers at http:\/\/127\.0\.0\.1:\d+\/v2\/papers\/ \(1 query thread\)/);
      expect((await getJson(`${servedUrl(cli)}?q=a1`)).body.count).toBe(1);
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
    } finally {
      await dir.remove();
    }
  });
});
