import { afterEach, describe, expect, it } from 'vitest';
import { killLeftovers, startCli } from './helpers.js';

afterEach(() => killLeftovers());

/** The JSON objects of a stream's lines (every line must be one). */
function jsonLines(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

describe('paperlist serve logs', () => {
  it('writes pino JSON lines under --log-format json: messages on stderr, the access log with request ids on stdout', async () => {
    const cli = startCli(['serve', '--port', '0', '--workers', '1', '--log-format', 'json', '--access-log']);
    await cli.waitFor(/"msg":"serving 4,000 papers at/);
    const messages = jsonLines(cli.stderr());
    const serving = messages.find((m) => String(m['msg']).startsWith('serving'))!;
    expect(serving).toMatchObject({ level: 30, name: 'paperlist' });
    expect(serving['time']).toMatch(/^\d{4}-\d\d-\d\dT/);
    const url = /at (\S+)/.exec(serving['msg'])![1]!;

    const given = await fetch(`${url}?q=attention`, { headers: { 'X-Request-Id': 'req-42', 'User-Agent': 'test-agent' } });
    expect(given.headers.get('x-request-id')).toBe('req-42');
    const made = await fetch(`${url}no-such-paper/`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    const madeId = made.headers.get('x-request-id')!;
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);

    await cli.waitFor(new RegExp(madeId));
    const access = jsonLines(cli.stdout());
    expect(access.find((line) => line['req']?.id === 'req-42')).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/v1/papers/?q=attention', userAgent: 'test-agent' },
      res: { statusCode: 200 },
    });
    expect(access.find((line) => line['req']?.id === madeId)).toMatchObject({ res: { statusCode: 404 } });
    expect(typeof access[0]!['responseTime']).toBe('number');
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
    expect(jsonLines(cli.stderr()).some((m) => m['msg'] === 'stopped')).toBe(true);
  });

  it('says how to accept a refused host, once per host; the text access log names each request id', async () => {
    const cli = startCli(['serve', '--port', '0', '--workers', '1', '--access-log']);
    await cli.waitFor(/serving 4,000 papers at (\S+)/);
    const url = /serving 4,000 papers at (\S+)/.exec(cli.stdout())![1]!;
    const { request } = await import('node:http');
    const ask = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { headers: { Host: 'papers.example.org:8080' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await ask()).toBe(400);
    expect(await ask()).toBe(400);
    await cli.waitFor(/refused a request for host "papers\.example\.org:8080" \(400\): if this server is meant to answer it, add --allowed-host papers\.example\.org \(or set --base-url\)/);
    expect(cli.stderr().match(/refused a request for host/g)).toHaveLength(1);
    await cli.waitFor(/GET \/api\/v1\/papers\/ 400 [\d.]+ms [0-9a-f-]{36}\n[^\n]*GET \/api\/v1\/papers\/ 400/);
  });
});
