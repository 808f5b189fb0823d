import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs a benchmark script in a process of its own (so each measures a fresh heap, and a big
 * corpus is freed when it ends) and answers the JSON report it wrote: the script is called with
 * `before`, the report's path, then `after`, and must exit 0.
 */
export function runChildReport<T>(
  script: string,
  args: { before: readonly string[]; after?: readonly string[] },
  options: { heapMiB?: number; exposeGc?: boolean; label?: string } = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'paperlist-bench-'));
  const out = join(dir, 'report.json');
  const node = [`--max-old-space-size=${options.heapMiB ?? 16000}`, ...(options.exposeGc === true ? ['--expose-gc'] : []), '--conditions=@paperlist/source', '--import', 'tsx'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...node, script, ...args.before, out, ...(args.after ?? [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`${options.label ?? script} exited with ${code}`);
        resolve(JSON.parse(readFileSync(out, 'utf8')) as T);
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
