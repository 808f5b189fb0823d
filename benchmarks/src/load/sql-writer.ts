import pg from 'pg';
import { toPaper, type Paper } from '@paperlist/core';
import { importPapers, type Queryable } from '@paperlist/postgres';

/** What a writer did. */
export interface WriterReport {
  batches: number;
  papers: number;
  /** Median time of one batch, ms. */
  p50: number;
}

/**
 * Another writer of the benchmark's catalogue (as `paperlist import --upsert` or the HTTP write
 * API of another server would be): upserts of papers whose titles change, in batches, through a
 * pool of its own. `initial` papers first (awaited), then `perSecond` papers a second in batches
 * of 10 until stopped.
 */
export async function startWriter(url: string, schema: string, initial: number, perSecond: number): Promise<{ stop: () => Promise<WriterReport> }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const { rows } = await pool.query<Paper>(
    `SELECT id, arxiv_id, nips_id, url_abs, url_pdf, title, abstract, authors, published, conference, conference_url_abs, conference_url_pdf, proceeding
      FROM "${schema}".papers WHERE ord % 53 = 0 LIMIT 20000`,
  );
  const papers = rows.map((row) => toPaper(row));
  let k = 0;
  const times: number[] = [];
  const write = async (n: number) => {
    const batch = Array.from({ length: n }, () => {
      const paper = papers[k++ % papers.length]!;
      return { ...paper, title: `${paper.title} (revised ${k})` };
    });
    const started = performance.now();
    await importPapers(pool as unknown as Queryable, batch, { schema, upsert: true });
    times.push(performance.now() - started);
  };
  for (let done = 0; done < initial; done += 1000) await write(Math.min(1000, initial - done));
  times.length = 0;
  let stopped = false;
  const loop = (async () => {
    const every = 10_000 / Math.max(perSecond, 1);
    while (!stopped && perSecond > 0) {
      const started = performance.now();
      await write(10);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, every - (performance.now() - started))));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await pool.end();
      const sorted = [...times].sort((a, b) => a - b);
      return { batches: times.length, papers: times.length * 10, p50: sorted[Math.floor(sorted.length / 2)] ?? 0 };
    },
  };
}
