import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { createPapersHandler, papersAfterStream, type Paper, type PaperSource, type RecordFormatOption } from '@paperlist/core';
import { createMemorySource, type IndexedMemorySource } from '@paperlist/core/node';
import { describeError, oneLine } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { openDatabaseSource, type DatabaseSource } from '../data/database.js';
import { resolveInputs, sampleInput, type CatalogInput } from '../data/inputs.js';
import { loadCatalog } from '../data/load-catalog.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCount, formatDuration } from '../log.js';
import { progressMode } from '../progress.js';
import { accessLog, rejectedHostWarning } from '../server/access-log.js';
import { createApp, type ServerState } from '../server/app.js';
import { ServerMetrics } from '../server/metrics.js';
import { closeGracefully, listen, serverOrigin } from '../server/http-server.js';
import { watchLauncher } from '../launcher-watch.js';
import { isSecondPress } from '../signals.js';
import { dataChange, dataFingerprint, sameData, type DataFingerprint } from '../state/data-fingerprint.js';
import { StateDir } from '../state/state-dir.js';
import { JournaledSource } from '../writes/journaled-source.js';
import { WriteJournal, type JournalRecord } from '../writes/write-journal.js';
import { resolveWriteToken, type WriteOptions } from '../writes/write-token.js';

/** Journal bytes written since the last snapshot that make the next one worth saving. */
const FOLD_JOURNAL_BYTES = 64 * 1024 * 1024;

export interface ServeOptions extends WriteOptions {
  data?: string[];
  format: RecordFormatOption;
  skipInvalid?: boolean;
  /** Where the catalogue is kept between starts (a snapshot, loaded instead of rebuilding when `data` is unchanged). */
  stateDir?: string;
  databaseUrl?: string;
  /** The PostgreSQL schema holding the catalogue. */
  schema?: string;
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
  /** With a state directory: the memory source behind its write journal. */
  private journaled: JournaledSource | undefined;
  private journal: WriteJournal | undefined;
  /** The journal's batches as read at start, until they are applied. */
  private journalAtOpen: readonly JournalRecord[] = [];
  /** What the catalogue now served was built from (with a state directory). */
  private data: DataFingerprint | undefined;
  /** The journal's size when the last snapshot was started. */
  private journalBytesAtSave = 0;
  /** The token HTTP writes must present; writes are off without one. */
  private writeToken: string | undefined;
  /** The snapshot being written in the background, if any. */
  private saving: Promise<void> = Promise.resolve();
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
        ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
        ...(options.schema === undefined ? {} : { schema: options.schema }),
      });
      source = this.database.source;
    } else {
      if (options.stateDir !== undefined) this.stateDir = await StateDir.open(resolve(context.cwd, options.stateDir));
      this.memory = createMemorySource([], {
        threads: options.workers,
        budgetMs: options.budget,
        ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
      });
      source = this.memory;
      if (this.stateDir !== undefined) source = await this.openJournal(this.stateDir, this.memory);
    }

    let server: Server;
    try {
      server = await listen(this.app(source), options.host, options.port);
    } catch (error) {
      await this.database?.close();
      await this.memory?.close();
      await this.journal?.close();
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
          await this.loadAtStart(inputs);
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
      await this.journal?.close();
      await this.stateDir?.close();
      throw error;
    } finally {
      removeHandlers();
    }
  }

  /**
   * Opens the state directory's write journal (kept whether writes are on or not: writes taken
   * by an earlier run stay part of the catalogue) and puts it in front of the memory source.
   */
  private async openJournal(stateDir: StateDir, memory: IndexedMemorySource): Promise<JournaledSource> {
    const { log } = this.context;
    const { journal, contents } = await WriteJournal.open(stateDir.journalPath);
    if (contents.tornBytes > 0) {
      log.warn(`${journal.path}: dropped ${contents.tornBytes} bytes at its end, a write batch cut off by a crash before it was acknowledged`);
    }
    this.journal = journal;
    this.journalAtOpen = contents.records;
    this.journaled = new JournaledSource(memory, journal, () => this.afterWrite());
    return this.journaled;
  }

  /** After each acknowledged write: the health check's count, and now and then a snapshot that folds the journal in. */
  private afterWrite(): void {
    this.state.papers = this.memory!.size;
    const journal = this.journal!;
    if (this.data !== undefined && journal.bytes - this.journalBytesAtSave >= FOLD_JOURNAL_BYTES) {
      this.journalBytesAtSave = journal.bytes;
      this.saveState(this.data);
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
                papers: () => this.state.papers,
                version: () => source.version?.(),
                queries: () => this.memory?.activity(),
                journal: () => (this.journal === undefined ? undefined : { bytes: this.journal.bytes, sequence: this.journal.durableSequence }),
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

  /**
   * The first load: from the state directory's snapshot when it was built from the same data
   * (seconds instead of a rebuild), else from the files, then saved there in the background.
   */
  private async loadAtStart(inputs: readonly CatalogInput[]): Promise<void> {
    const { log } = this.context;
    const stateDir = this.stateDir;
    if (stateDir === undefined) {
      await this.load(inputs, progressMode(log));
      return;
    }
    // Taken before reading: a file changed while it is read then differs at the next start.
    const data = await dataFingerprint(inputs, this.options);
    const manifest = await stateDir.manifest();
    this.data = data;
    if (manifest !== undefined && sameData(manifest.data, data)) {
      const started = performance.now();
      try {
        await this.memory!.restore(stateDir.snapshotPath(manifest));
        log.info(`loaded ${formatCount(manifest.papers)} papers from the snapshot in ${stateDir.path} (${formatDuration(performance.now() - started)})`);
        await this.replayJournal(manifest.journalApplied ?? 0);
        this.state.papers = this.memory!.size;
        return;
      } catch (error) {
        log.warn(`${oneLine(describeError(error).message)}; rebuilding from the catalogue files`);
      }
    } else if (manifest !== undefined) {
      log.info(`not using the snapshot in ${stateDir.path}: ${dataChange(manifest.data, data)} since it was saved; rebuilding`);
    }
    await this.load(inputs, progressMode(log));
    this.saveState(data);
  }

  /** Applies the journal's batches after `applied` to the catalogue just restored, as one batch. */
  private async replayJournal(applied: number): Promise<void> {
    const { journaled, journal } = this;
    if (journaled === undefined || journal === undefined || journal.sequence <= applied) return;
    const started = performance.now();
    const pending = this.journalAtOpen.filter((record) => record.seq > applied);
    // Through the memory source itself: these batches are in the journal already.
    await this.memory!.write(pending.flatMap((record) => record.changes));
    journaled.markApplied(journal.sequence);
    this.journalAtOpen = [];
    this.context.log.info(`applied ${formatCount(pending.length)} write batches from ${journal.path} (${formatDuration(performance.now() - started)})`);
  }

  /** Writes a snapshot of the catalogue now served to the state directory, after any save still running. */
  private saveState(data: DataFingerprint): void {
    const { stateDir, memory } = this;
    if (stateDir === undefined || memory === undefined) return;
    const { log } = this.context;
    this.saving = this.saving.then(async () => {
      const started = performance.now();
      // Read as the save starts: the catalogue it writes holds at least these batches.
      const applied = this.journaled?.applied ?? 0;
      const papers = memory.size;
      try {
        const manifest = await stateDir.save(memory, data, papers, applied);
        log.info(`saved a snapshot of ${formatCount(papers)} papers to ${stateDir.snapshotPath(manifest)} (${formatDuration(performance.now() - started)})`);
      } catch (error) {
        log.warn(`could not save a snapshot to ${stateDir.path} (the next start rebuilds): ${oneLine(describeError(error).message)}`);
      }
    });
  }

  /** Loads the files into the memory source: built aside, then swapped in at once. */
  private async load(inputs: readonly CatalogInput[], progress: ReturnType<typeof progressMode>): Promise<number> {
    const { log } = this.context;
    const memory = this.memory!;
    const journaled = this.journaled;
    // Writes acknowledged later are applied by the memory source after this replacement.
    const writtenUpTo = journaled?.journalSequence ?? 0;
    const written: Map<string, Paper | null> | undefined = journaled?.netChanges();
    let indexing = 0;
    const { papers } = await loadCatalog(
      inputs,
      {
        log,
        progress,
        format: this.options.format,
        ...(this.options.skipInvalid === undefined ? {} : { skipInvalid: this.options.skipInvalid }),
        signal: this.abort.signal,
      },
      // Papers are indexed as they are read, with every write of the journal applied on the way;
      // the new catalogue replaces the current one at the end.
      (stream, annotations) =>
        memory.replaceFrom(
          (async function* timed() {
            yield* written === undefined ? stream : papersAfterStream(stream, written);
            indexing = performance.now();
          })(),
          { annotations },
        ),
    );
    if (journaled !== undefined) journaled.markApplied(writtenUpTo);
    const elapsed = performance.now() - indexing;
    if (elapsed >= 500) log.info(`indexed ${formatCount(papers)} papers (${formatDuration(elapsed)} to finish the index)`);
    this.state.papers = memory.size;
    return memory.size;
  }

  private announce(url: string): void {
    const papers = this.state.papers ?? 0;
    const threads = this.memory === undefined ? '' : ` (${this.options.workers} query thread${this.options.workers === 1 ? '' : 's'})`;
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
    await this.saving;
    await this.database?.close();
    await this.memory?.close();
    await this.journal?.close();
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
    if (this.memory === undefined) {
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
          const inputs = await this.inputs();
          const data = this.stateDir === undefined ? undefined : await dataFingerprint(inputs, this.options);
          const count = await this.load(inputs, log.quiet ? 'none' : 'plain');
          if (data !== undefined) {
            this.data = data;
            this.saveState(data);
          }
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
