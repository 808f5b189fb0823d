import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

/**
 * The Dockerfile, checked where no container runtime can build it (no Docker daemon, no registry
 * for base images): dockerfile-utils' validator (the one behind VS Code's Docker support), and the
 * properties docs/deploy.md promises.
 */
const text = readFileSync(fileURLToPath(new URL('../Dockerfile', import.meta.url)), 'utf8');
const instructions = text
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const final = instructions.slice(instructions.map((line) => line.startsWith('FROM ')).lastIndexOf(true));

describe('Dockerfile', () => {
  it('has no problems by dockerfile-utils', () => {
    expect(validate(text).map((problem) => `${problem.range.start.line + 1}: ${problem.message}`)).toEqual([]);
  });

  it('builds in one stage and runs in another, as a non-root user', () => {
    expect(instructions.filter((line) => line.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
    expect(final.find((line) => line.startsWith('USER '))).toBe('USER node');
    expect(final.some((line) => line.startsWith('COPY --from=build'))).toBe(true);
  });

  it('runs node as PID 1 (exec form), so signals reach the server, and checks /healthz', () => {
    expect(final.find((line) => line.startsWith('ENTRYPOINT '))).toBe('ENTRYPOINT ["node", "/app/dist/bin.js"]');
    expect(final.find((line) => line.startsWith('STOPSIGNAL '))).toBe('STOPSIGNAL SIGTERM');
    expect(final.find((line) => line.startsWith('HEALTHCHECK '))).toMatch(/\/healthz/);
    expect(final.find((line) => line.startsWith('ENV '))).toMatch(/HOST=0\.0\.0\.0/);
    // The index's memory on transparent huge pages (docs/deploy.md).
    expect(final.find((line) => line.startsWith('ENV '))).toMatch(/GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1/);
  });
});
