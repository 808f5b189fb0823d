import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * Measures this process's event-loop delay for a benchmark's server: on SIGUSR2 it prints the
 * delays since the last signal (or the start) as one `LOOP {"p99":…,"max":…}` line, in
 * milliseconds, and counts afresh. The histogram is returned for a last report at exit.
 */
export function reportLoopDelayOnSignal(): IntervalHistogram {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  process.on('SIGUSR2', () => {
    console.log(`LOOP ${JSON.stringify({ p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 })}`);
    loopDelay.reset();
  });
  return loopDelay;
}
