/** Command-line options of `pnpm bench` (after `--`). */
export interface BenchArgs {
  /** Parts to run: engine, adversarial, extensions (facets, export, cursors), http, load (under abuse and throughput), sql-mode (the SQL source under 10 clients), postgres. */
  only: Set<string>;
  /** Corpus sizes for the engine: 500k (the large file) and/or 1m (every paper twice). */
  sizes: CorpusSize[];
  /** Corpus size for MiniSearch, FlexSearch and the scan (they are slow to build): 500k, 1m or none. */
  anchorsSize: CorpusSize | 'none';
  /** Fewer repetitions, for a quick look. */
  quick: boolean;
  /** HTTP: seconds per autocannon run. */
  duration: number;
}

export type CorpusSize = '500k' | '1m';

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { only: new Set(['engine', 'adversarial', 'extensions', 'writes', 'http', 'load', 'sql-mode', 'memory-mode', 'postgres']), sizes: ['500k', '1m'], anchorsSize: '500k', quick: false, duration: 10 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--') continue;
    else if (arg === '--only') args.only = new Set(value().split(','));
    else if (arg === '--size') {
      const v = value();
      args.sizes = v === 'all' ? ['500k', '1m'] : v.split(',').map(size);
    }
    else if (arg === '--anchors') {
      const v = value();
      args.anchorsSize = v === 'none' ? 'none' : size(v);
    } else if (arg === '--quick') args.quick = true;
    else if (arg === '--duration') args.duration = Number(value());
    else if (arg === '--help' || arg === '-h') {
      console.log(`pnpm bench -- [--only engine,adversarial,extensions,writes,http,load,sql-mode,memory-mode,postgres] [--size 500k|1m|all] [--anchors 500k|1m|none] [--duration s] [--quick]`);
      process.exit(0);
    } else throw new Error(`unknown option ${arg} (try --help)`);
  }
  return args;
}

function size(value: string): CorpusSize {
  const v = value.toLowerCase();
  if (v === '500k' || v === '498k') return '500k';
  if (v === '1m') return '1m';
  throw new Error(`unknown size ${value}: 500k or 1m`);
}
