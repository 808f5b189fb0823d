import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { createPapersHandler, type PaperSource, type RecordFormatOption } from '@paperlist/core';
import { createMemorySource, type IndexedMemorySource } from '@paperlist/core/node';
import { describeError, oneLine } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { openDatabaseSource, type DatabaseSource, type QueryMode } from '../data/database.js';
import { resolveInputs, sampleInput, type CatalogInput } from '../data/inputs.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCount, formatDuration } from '../log.js';
import { accessLog, rejectedHostWarning } from '../server/access-log.js';
import { createApp, type ServerState } from '../server/app.js';
import { ServerMetrics } from '../server/metrics.js';
import { closeGracefully, listen, serverOrigin } from '../server/http-server.js';
import { watchLauncher } from '../launcher-watch.js';
import { isSecondPress } from '../signals.js';
import { StateDir } from '../state/state-dir.js';
import { MemoryCatalogue } from '../state/memory-catalogue.js';
import { resolveWriteToken, type WriteOptions } from '../writes/write-token.js';


export interface ServeOptions extends WriteOptions {
  data?: string[];
  format: RecordFormatOption;
  skipInvalid?: boolean;
  /** Where the catalogue is kept between starts (a snapshot, loaded instead of rebuilding when `data` is unchanged). */
  stateDir?: string;
  databaseUrl?: string;
  /** The PostgreSQL schema holding the catalogue. */
  schema?: string;
  /** With `databaseUrl`: answer from the in-memory engine following PostgreSQL (`memory`, default), or in SQL. */
  queryMode?: QueryMode;
  port: number;
  host: string;
  baseUrl?: string;
  mount: string;
  /** Query threads over the one in-memory index (`--workers`). */
  workers: number;
  /** Milliseconds of work one query may take before it stops and is answered 503. */
  budget: number;
  /** Queries that may wait for a thread before more are refused with 503. */
  maxQueue?: number;
  pageSize?: number;
  maxPageSize?: number;
  trustProxy?: boolean | number | string;
  /** Host names requests may use (`*`: any); by default the local names and --host. */
  allowedHost?: string[];
  /** Seconds a catalogue query may take before a 503. */
  timeout?: number;
  /** Seconds to let requests in flight finish on shutdown. */
  shutdownTimeout: number;
  accessLog?: boolean;
  /** Origins whose browser scripts may read the API (`--cors`). */
  cors?: string[];
  /** Compress answers by `Accept-Encoding` (`--no-compression` turns it off). */
  compression?: boolean;
  /** Serve Prometheus metrics at `/metrics` (`--no-metrics` turns it off). */
  metrics?: boolean;
  /** Hidden: milliseconds to wait before answering each API request (for tests of graceful shutdown). */
  debugDelay?: number;
}

/**
 * `paperlist serve`: loads the catalogue (or connects to PostgreSQL), serves it until SIGTERM or
 * SIGINT, and reloads it on SIGHUP. Queries run on `workers` threads that share one index; this
 * thread only accepts connections, parses, routes and writes. Resolves with the exit code once
 * the server has stopped.
 */
export async function serve(options: ServeOptions, context: CommandContext): Promise<ExitCode> {
  checkHandlerOptions(options);
  return new ServeProcess(options, context).run();
}

/** The API options are checked before anything is loaded, so a typo fails at once. */
function checkHandlerOptions(options: ServeOptions): void {
  const unused: PaperSource = { list: async () => ({ count: 0, results: [] }), get: async () => null };
  createPapersHandler({ ...handlerOptions(options), source: unused });
}

/** Local names, and the address the server listens on unless it is a wildcard. */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** The options of the papers API that come from the command line. */
function handlerOptions(options: ServeOptions) {
  const listenHost = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const allowedHosts =
    options.allowedHost ?? (WILDCARD_HOSTS.has(options.host) || LOCAL_HOSTS.includes(listenHost) ? LOCAL_HOSTS : [...LOCAL_HOSTS, listenHost]);
  return {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }),
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
    allowedHosts,
  };
}

type StopReason = NodeJS.Signals;

class ServeProcess {
  private readonly state: ServerState = { phase: 'loading', papers: undefined, inFlight: 0 };
  private readonly abort = new AbortController();
  private memory: IndexedMemorySource | undefined;
  private database: DatabaseSource | undefined;
  private stateDir: StateDir | undefined;
  /** The in-memory catalogue and what keeps it (snapshots, the write journal), without a database. */
  private catalogue: MemoryCatalogue | undefined;
  /** The token HTTP writes must present; writes are off without one. */
  private writeToken: string | undefined;
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  private interruptedLoading = false;
  private stopRequested: ((reason: StopReason) => void) | undefined;
  private readonly stopped: Promise<StopReason>;

  constructor(
    private readonly options: ServeOptions,
    private readonly context: CommandContext,
  ) {
    this.stopped = new Promise((resolve) => (this.stopRequested = resolve));
  }

  async run(): Promise<ExitCode> {
    const { options, context } = this;
    const { log } = context;
    const inputs = options.databaseUrl === undefined ? await this.inputs() : [];
    this.writeToken = await resolveWriteToken(options.writeTokenFile === undefined ? options : { ...options, writeTokenFile: resolve(context.cwd, options.writeTokenFile) });
    let source: PaperSource;
    if (options.databaseUrl !== undefined) {
      this.database = await openDatabaseSource(options.databaseUrl, log, {
        mode: options.queryMode ?? 'memory',
        threads: options.workers,
        budgetMs: options.budget,
        ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
        ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
        ...(options.schema === undefined ? {} : { schema: options.schema }),
      });
      const database = this.database;
      this.state.follow = () => database.follow();
      source = database.source;
    } else {
      if (options.stateDir !== undefined) this.stateDir = await StateDir.open(resolve(context.cwd, options.stateDir));
      this.memory = createMemorySource([], {
        threads: options.workers,
        budgetMs: options.budget,
        ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
      });
      this.catalogue = new MemoryCatalogue(this.memory, this.stateDir, options, context, (papers) => (this.state.papers = papers), this.abort.signal);
      source = await this.catalogue.open();
    }

    let server: Server;
    try {
      server = await listen(this.app(source), options.host, options.port);
    } catch (error) {
      await this.database?.close();
      await this.memory?.close();
      await this.catalogue?.close();
      await this.stateDir?.close();
      throw error;
    }
    const origin = serverOrigin(server, options.host);
    if (WILDCARD_HOSTS.has(options.host) && options.allowedHost === undefined && options.baseUrl === undefined) {
      log.warn(
        `listening on every interface, but only requests for ${LOCAL_HOSTS.join(', ')} are answered (others get 400): ` +
          'name the public host with --allowed-host or --base-url',
      );
    }
    const removeHandlers = this.installSignalHandlers();
    try {
      try {
        if (this.database !== undefined) {
          this.state.papers = await this.database.count();
        } else {
          log.info(`listening on ${origin}; loading the catalogue`);
          await this.catalogue!.loadAtStart(inputs);
        }
      } catch (error) {
        if (!this.abort.signal.aborted) throw error;
      }
      if (!this.abort.signal.aborted) {
        this.state.phase = 'ready';
        this.announce(`${origin}${options.mount}/papers/`);
      }
      const reason = await this.stopped;
      return await this.shutdown(server, reason);
    } catch (error) {
      this.state.phase = 'stopping';
      await closeGracefully(server, 1000);
      await this.database?.close();
      await this.memory?.close();
      await this.catalogue?.close();
      await this.stateDir?.close();
      throw error;
    } finally {
      removeHandlers();
    }
  }


  private async inputs(): Promise<CatalogInput[]> {
    const { data } = this.options;
    return data === undefined || data.length === 0 ? [await sampleInput()] : resolveInputs(data, this.context.cwd);
  }

  private app(source: PaperSource) {
    const { options, context } = this;
    const { log } = context;
    return createApp({
      source,
      state: this.state,
      mount: options.mount,
      ...handlerOptions(options),
      ...(this.writeToken === undefined ? {} : { writeToken: this.writeToken }),
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
      ...(options.cors === undefined ? {} : { cors: options.cors }),
      ...(options.metrics === false
        ? {}
        : {
            metrics: new ServerMetrics(
              {
                papers: () => this.database?.follow()?.papers ?? this.state.papers,
                version: () => source.version?.(),
                queries: () => this.memory?.activity() ?? this.database?.activity(),
                follow: () => this.database?.follow(),
                journal: () => this.catalogue?.journalState(),
              },
              options.mount,
            ),
          }),
      compression: options.compression !== false,
      ...(options.debugDelay === undefined ? {} : { responseDelayMs: options.debugDelay }),
      onError: (error, where) => {
        log.error(`${where}: ${describeError(error).message}`);
        if (error instanceof Error && error.stack !== undefined) log.debug(error.stack);
      },
      ...(options.accessLog === true ? { onResponse: accessLog(log.format, context.stdout) } : {}),
      onRejectedHost: rejectedHostWarning((message) => log.warn(message)),
    });
  }


  private announce(url: string): void {
    const papers = this.state.papers ?? 0;
    const inMemory = this.memory !== undefined || this.database?.follow() !== undefined;
    const threads = inMemory ? ` (${this.options.workers} query thread${this.options.workers === 1 ? '' : 's'})` : '';
    const line = `serving ${formatCount(papers)} papers at ${url}${threads}`;
    // With JSON logs, stdout holds only the access log's objects: the line is a log message then.
    if (this.context.log.format === 'json') this.context.log.info(line);
    else this.context.stdout.write(`paperlist: ${line}\n`);
  }

  private installSignalHandlers(): () => void {
    const { log } = this.context;
    let firstStop = 0;
    const onStop = (signal: NodeJS.Signals) => {
      if (this.state.phase === 'stopping') {
        if (signal === 'SIGINT' && isSecondPress(firstStop)) {
          log.warn('second SIGINT: exiting now');
          process.exit(EXIT.INTERRUPTED);
        }
        return;
      }
      firstStop = Date.now();
      this.requestStop(signal);
    };
    const onHangup = () => void this.reload();
    process.on('SIGTERM', onStop);
    process.on('SIGINT', onStop);
    process.on('SIGHUP', onHangup);
    // Not through onStop: a launcher's signal must not count as a second Ctrl-C.
    const stopWatching = watchLauncher({
      onGone: (pid) => {
        log.info(`the process that started paperlist (pid ${pid}) has exited`);
        this.requestStop('SIGTERM');
      },
      onInterrupted: (pid) => {
        log.info(`the shell that started paperlist (pid ${pid}) was signalled to stop`);
        // A terminal's Ctrl-C reaches this process too, at times after the watch saw it (a loaded
        // machine): that SIGINT is the same press, not a second one that would cut the shutdown short.
        if (this.state.phase !== 'stopping') firstStop = Date.now();
        this.requestStop('SIGINT');
      },
    });
    return () => {
      stopWatching();
      process.off('SIGTERM', onStop);
      process.off('SIGINT', onStop);
      process.off('SIGHUP', onHangup);
    };
  }

  private requestStop(reason: StopReason): void {
    if (this.state.phase === 'stopping') return;
    const wasLoading = this.state.phase === 'loading';
    this.state.phase = 'stopping';
    this.abort.abort(new Error(`stopped by ${reason}`));
    if (wasLoading) {
      this.interruptedLoading = true;
      this.context.log.info(`${reason}: loading interrupted, stopping`);
    }
    this.stopRequested?.(reason);
  }

  private async shutdown(server: Server, reason: StopReason): Promise<ExitCode> {
    const { log } = this.context;
    // Connections the kernel already accepted (queued while a long request held the event loop)
    // are taken in before the listening socket closes, so they are answered rather than reset.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setImmediate(resolve));
    const inFlight = this.state.inFlight;
    if (!this.interruptedLoading) log.info(`${reason}: shutting down, ${inFlight} request${inFlight === 1 ? '' : 's'} in flight`);
    const { cut } = await closeGracefully(server, this.options.shutdownTimeout * 1000);
    if (cut > 0) log.warn(`cut ${cut} connection${cut === 1 ? '' : 's'} still open after ${this.options.shutdownTimeout}s`);
    await this.reloading?.catch(() => {});
    await this.catalogue?.close();
    await this.database?.close();
    await this.memory?.close();
    await this.stateDir?.close();
    log.info('stopped');
    return EXIT.OK;
  }

  /** SIGHUP: reloads the same files aside and swaps them in; a failure keeps the current catalogue. */
  private async reload(): Promise<void> {
    const { log } = this.context;
    if (this.state.phase !== 'ready') {
      log.info(`SIGHUP ignored: the server is ${this.state.phase}`);
      return;
    }
    const catalogue = this.catalogue;
    if (catalogue === undefined) {
      log.info('SIGHUP: nothing to reload (the catalogue is in PostgreSQL)');
      return;
    }
    if (this.reloading !== undefined) {
      this.reloadAgain = true;
      log.info('SIGHUP: a reload is already running; reloading again after it');
      return;
    }
    const before = this.state.papers ?? 0;
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        log.info('SIGHUP: reloading the catalogue');
        const started = performance.now();
        try {
          const count = await catalogue.reload(await this.inputs());
          log.info(`reloaded: serving ${formatCount(count)} papers (was ${formatCount(before)}) after ${formatDuration(performance.now() - started)}`);
        } catch (error) {
          if (this.abort.signal.aborted) return;
          log.error(`reload failed, still serving the previous ${formatCount(this.state.papers ?? 0)} papers: ${oneLine(describeError(error).message)}`);
          if (error instanceof Error && error.stack !== undefined) log.debug(error.stack);
        }
      } while (this.reloadAgain && !this.abort.signal.aborted);
    })().finally(() => (this.reloading = undefined));
    await this.reloading;
  }
}
