import cluster, { type Worker } from 'node:cluster';
import type { CommandContext } from '../context.js';
import { resolveInputs } from '../data/inputs.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCount } from '../log.js';
import type { ServeOptions } from '../commands/serve.js';
import { isSecondPress } from '../signals.js';

/** The message a worker sends once it serves. */
export const WORKER_READY = 'paperlist:ready';

export interface WorkerReady {
  type: typeof WORKER_READY;
  papers: number;
  url: string;
}

function isWorkerReady(message: unknown): message is WorkerReady {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === WORKER_READY;
}

/** More crashes than this within {@link CRASH_WINDOW_MS} and the primary gives up. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 60_000;

/**
 * The primary process of `serve --workers N`: forks N workers (each loads the catalogue and serves on
 * the shared port), prints the URL once all serve, restarts workers that crash after they served,
 * and forwards SIGTERM/SIGINT (as SIGTERM: a graceful shutdown) and SIGHUP (reload) to them.
 * A worker that fails before serving (bad data, address in use) stops the whole server with its exit code.
 */
export async function runPrimary(options: ServeOptions, context: CommandContext): Promise<ExitCode> {
  const { log } = context;
  // Fail fast, once, on missing files rather than in every worker.
  if (options.databaseUrl === undefined && options.data !== undefined) await resolveInputs(options.data, context.cwd);

  const ready = new Set<number>();
  const crashes: number[] = [];
  let announced = false;
  let stopping = false;
  let exitCode: ExitCode = EXIT.OK;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isWorkerReady(message)) return;
      ready.add(worker.id);
      if (!announced && ready.size >= options.workers) {
        announced = true;
        context.stdout.write(`paperlist: serving ${formatCount(message.papers)} papers at ${message.url} with ${options.workers} workers\n`);
      } else if (announced) {
        log.info(`worker ${worker.id} is serving ${formatCount(message.papers)} papers`);
      }
    });
    return worker;
  };

  const stopAll = (signal: NodeJS.Signals) => {
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker !== undefined && !worker.isDead()) worker.process.kill(signal);
    }
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    const how = signal === null ? `exit code ${code ?? 0}` : `signal ${signal}`;
    const wasReady = ready.delete(worker.id);
    if (!stopping) {
      if (!wasReady) {
        // It never served: the others would fail the same way.
        log.error(`worker ${worker.id} failed before serving (${how}); stopping`);
        exitCode = code !== null && code !== 0 ? (code as ExitCode) : EXIT.INTERNAL;
        stopping = true;
        stopAll('SIGTERM');
      } else {
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
        if (crashes.length > MAX_CRASHES) {
          log.error(`workers crashed ${crashes.length} times in a minute; stopping`);
          exitCode = EXIT.INTERNAL;
          stopping = true;
          stopAll('SIGTERM');
        } else {
          log.warn(`worker ${worker.id} died (${how}); starting a new one`);
          fork();
        }
      }
    }
    if (Object.values(cluster.workers ?? {}).every((w) => w === undefined || w.isDead() || w === worker)) {
      if (stopping) resolveDone();
    }
  };
  cluster.on('exit', onExit);

  let firstStop = 0;
  const onStop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT' && isSecondPress(firstStop)) {
        log.warn('second SIGINT: killing the workers and exiting now');
        stopAll('SIGKILL');
        process.exit(EXIT.INTERRUPTED);
      }
      return;
    }
    stopping = true;
    firstStop = Date.now();
    log.info(`${signal}: stopping ${options.workers} workers`);
    // SIGTERM, not SIGINT: a Ctrl-C already reached the workers, and a second SIGINT would cut them short.
    stopAll('SIGTERM');
  };
  const onHangup = () => {
    log.info('SIGHUP: asking the workers to reload');
    stopAll('SIGHUP');
  };
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  process.on('SIGHUP', onHangup);

  try {
    for (let i = 0; i < options.workers; i++) fork();
    await done;
  } finally {
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
    process.off('SIGHUP', onHangup);
    cluster.off('exit', onExit);
  }
  if (exitCode === EXIT.OK) log.info('stopped');
  return exitCode;
}
