import type { Segment } from '../segments/segment.js';
import { segmentsAfter } from '../segments/segment-writes.js';
import { checkChanges } from '../writes/check-changes.js';
import type { PaperChange } from '../writes/paper-changes.js';
import { planWrite, type WritePlan } from './catalogue-writer.js';

/**
 * The write path of the thread that serves requests, run once on a made-up batch over the
 * catalogue as it is (checks, net changes, unchanged papers, the copies to mask), with nothing
 * installed: a large source runs a few rounds of it when it starts (see `NodeEngineSource`), so
 * that its first writes do not run that code unoptimized. Measured at 1M papers, the first batch
 * of 1,000 upserts after a start spent 10–20 ms here and 8–15 ms installing, against 2–6 ms and
 * 1–5 ms for later ones. Half of the batch replaces papers of the base (their titles changed,
 * and one as it is), half is new, and one delete is of an id the catalogue does not have.
 */
export function warmUpWritePath(segments: readonly Segment[], round: number, papers = 300): WritePlan | null {
  const base = segments[0]?.index;
  if (base === undefined || base.n === 0) return null;
  const changes: PaperChange[] = [];
  const stride = Math.max(1, Math.floor(base.n / papers));
  for (let i = 0; i < papers; i++) {
    const stored = base.store.paper((round * 7919 + i * stride) % base.n);
    const paper = i % 2 === 0 ? { ...stored, id: `paperlist-warm-up-${round}-${i}` } : i === 1 ? stored : { ...stored, title: `${stored.title} (${round})` };
    changes.push({ op: 'upsert', paper });
  }
  changes.push({ op: 'delete', id: `paperlist-warm-up-absent-${round}` });
  checkChanges(changes);
  const plan = planWrite([changes], segments);
  segmentsAfter(segments, plan.combined, [], plan.find);
  return plan;
}
