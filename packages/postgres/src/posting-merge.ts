import { decodePostings, type DecodedPostings } from './posting-codec.js';

/**
 * Occurrence counts, one per paper of a term, in the narrowest array that holds them: nearly
 * always bytes (a title holds a word a few times), so a cached term costs 7–11 bytes a paper
 * instead of 16–28, and the lists cache holds two to three times as many terms.
 */
export type Counts = Int32Array | Uint16Array | Uint8Array;

/**
 * The papers one search term (one word, the last one a prefix) matches, from the posting lists
 * of every dictionary word starting with it: ordinals ascending, and per field the term's
 * occurrences as a whole word (`*Whole`) and in all (whole or prefix: `*All`).
 */
export interface TermPostings {
  ords: Int32Array;
  titleAll: Counts;
  abstractAll: Counts;
  authorsAll: Counts;
  /** `null`: the word itself is in no paper (every occurrence is a prefix one). */
  titleWhole: Counts | null;
  abstractWhole: Counts | null;
  authorsWhole: Counts | null;
  /** Memory held, for the cache's budget. */
  bytes: number;
}

/** A merge before its counts are narrowed (and its memory counted). */
type Unsized = Omit<TermPostings, 'bytes'>;

/** One dictionary word's posting list as read: `df` entries encoded in `data` (see posting-codec.ts). */
export interface RawPostingList {
  word: string;
  df: number;
  data: Uint8Array;
}

/**
 * Decodes and merges the lists of a term's words (`prefix`: the term itself, whose own counts
 * are the `*Whole` ones; `null`: none is). The CPU-heavy half of answering from posting lists:
 * the source runs it on a merge thread (see merge-thread/merge-pool.ts) or with
 * {@link mergeInThread}.
 */
export type MergePostings = (lists: RawPostingList[], prefix: string | null) => Promise<TermPostings>;

/** Entries decoded between two turns of the event loop (in-thread merging only). */
const YIELD_EVERY = 500_000;

/**
 * {@link MergePostings} on this thread (`mergeThreads: 0`): the lists of a short prefix hold
 * millions of entries, so decoding gives the event loop (the server's other requests) a turn
 * every so often.
 */
export async function mergeInThread(lists: RawPostingList[], prefix: string | null): Promise<TermPostings> {
  const decoded: { word: string; postings: DecodedPostings }[] = [];
  let since = 0;
  for (const { word, df, data } of lists) {
    decoded.push({ word, postings: decodePostings(data, df) });
    since += df;
    if (since >= YIELD_EVERY) {
      since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return narrowed(mergeLists(decoded, prefix));
}

/** Decodes and merges at once, without yielding (a merge thread's job: nothing else runs there). */
export function decodeAndMerge(lists: readonly RawPostingList[], prefix: string | null): TermPostings {
  return narrowed(
    mergeLists(
      lists.map(({ word, df, data }) => ({ word, postings: decodePostings(data, df) })),
      prefix,
    ),
  );
}

/** A term's merged lists with each count array in the narrowest type that holds it (an array used for two fields stays one). */
function narrowed(postings: Unsized): TermPostings {
  const done = new Map<Counts, Counts>();
  const narrow = (counts: Counts | null): Counts | null => {
    if (counts === null) return null;
    let out = done.get(counts);
    if (out === undefined) {
      let max = 0;
      for (let i = 0; i < counts.length; i++) if (counts[i]! > max) max = counts[i]!;
      out = max <= 0xff ? new Uint8Array(counts.length) : max <= 0xffff ? new Uint16Array(counts.length) : counts;
      if (out !== counts) out.set(counts);
      done.set(counts, out);
    }
    return out;
  };
  const out: TermPostings = {
    ords: postings.ords,
    titleAll: narrow(postings.titleAll)!,
    abstractAll: narrow(postings.abstractAll)!,
    authorsAll: narrow(postings.authorsAll)!,
    titleWhole: narrow(postings.titleWhole),
    abstractWhole: narrow(postings.abstractWhole),
    authorsWhole: narrow(postings.authorsWhole),
    bytes: 0,
  };
  out.bytes = out.ords.byteLength + [...done.values()].reduce((sum, counts) => sum + counts.byteLength, 0);
  return out;
}

/** The union of the words' lists: a paper's counts summed over the words it holds. */
function mergeLists(lists: { word: string; postings: DecodedPostings }[], prefix: string | null): Unsized {
  const exact = lists.find((list) => list.word === prefix)?.postings ?? null;
  if (lists.length === 0) {
    const none = new Int32Array(0);
    return { ords: none, titleAll: none, abstractAll: none, authorsAll: none, titleWhole: null, abstractWhole: null, authorsWhole: null };
  }
  if (lists.length === 1) {
    const { ords, title, abstract, authors } = lists[0]!.postings;
    return {
      ords,
      titleAll: title,
      abstractAll: abstract,
      authorsAll: authors,
      titleWhole: exact === null ? null : title,
      abstractWhole: exact === null ? null : abstract,
      authorsWhole: exact === null ? null : authors,
    };
  }
  let max = 0;
  let total = 0;
  for (const { postings } of lists) {
    total += postings.ords.length;
    if (postings.ords.length > 0) max = Math.max(max, postings.ords[postings.ords.length - 1]!);
  }
  // Keys (ordinal, list) must stay exact in a double.
  const out = total * 8 < max && (max + 1) * lists.length < 2 ** 52 ? mergeSorted(lists) : mergeDense(lists, max);
  const n = out.ords.length;
  const merged: Unsized = {
    ...out,
    titleWhole: exact === null ? null : new Int32Array(n),
    abstractWhole: exact === null ? null : new Int32Array(n),
    authorsWhole: exact === null ? null : new Int32Array(n),
  };
  if (exact !== null) {
    // The exact word's own counts, placed by a walk of both ascending lists.
    let j = 0;
    for (let i = 0; i < exact.ords.length; i++) {
      while (merged.ords[j] !== exact.ords[i]) j++;
      merged.titleWhole![j] = exact.title[i]!;
      merged.abstractWhole![j] = exact.abstract[i]!;
      merged.authorsWhole![j] = exact.authors[i]!;
    }
  }
  return merged;
}

type MergedCounts = Pick<TermPostings, 'ords' | 'titleAll' | 'abstractAll' | 'authorsAll'>;

/** Counts gathered by ordinal, then read off in order: linear in the papers plus the largest ordinal (lists holding many papers). */
function mergeDense(lists: readonly { postings: DecodedPostings }[], max: number): MergedCounts {
  const title = new Int32Array(max + 1);
  const abstract = new Int32Array(max + 1);
  const authors = new Int32Array(max + 1);
  const held = new Uint8Array(max + 1);
  for (const { postings } of lists) {
    const { ords } = postings;
    for (let i = 0; i < ords.length; i++) {
      const ord = ords[i]!;
      held[ord] = 1;
      title[ord]! += postings.title[i]!;
      abstract[ord]! += postings.abstract[i]!;
      authors[ord]! += postings.authors[i]!;
    }
  }
  let n = 0;
  for (let ord = 0; ord <= max; ord++) n += held[ord]!;
  const out = { ords: new Int32Array(n), titleAll: new Int32Array(n), abstractAll: new Int32Array(n), authorsAll: new Int32Array(n) };
  let at = 0;
  for (let ord = 0; ord <= max; ord++) {
    if (held[ord] === 0) continue;
    out.ords[at] = ord;
    out.titleAll[at] = title[ord]!;
    out.abstractAll[at] = abstract[ord]!;
    out.authorsAll[at] = authors[ord]!;
    at++;
  }
  return out;
}

/**
 * The same from one numeric sort of (ordinal, list) keys (lists holding few papers, where a pass
 * over every ordinal would cost more): each list's entries come in its own ascending order.
 */
function mergeSorted(lists: readonly { postings: DecodedPostings }[]): MergedCounts {
  const k = lists.length;
  let total = 0;
  for (const { postings } of lists) total += postings.ords.length;
  const keys = new Float64Array(total);
  let at = 0;
  for (let l = 0; l < k; l++) for (const ord of lists[l]!.postings.ords) keys[at++] = ord * k + l;
  keys.sort();
  const cursors = new Int32Array(k);
  const ords = new Int32Array(total);
  const titleAll = new Int32Array(total);
  const abstractAll = new Int32Array(total);
  const authorsAll = new Int32Array(total);
  let n = 0;
  for (let i = 0; i < total; i++) {
    const key = keys[i]!;
    const l = key % k;
    const ord = (key - l) / k;
    const { postings } = lists[l]!;
    const e = cursors[l]!++;
    if (n === 0 || ords[n - 1] !== ord) ords[n++] = ord;
    titleAll[n - 1]! += postings.title[e]!;
    abstractAll[n - 1]! += postings.abstract[e]!;
    authorsAll[n - 1]! += postings.authors[e]!;
  }
  return { ords: ords.slice(0, n), titleAll: titleAll.slice(0, n), abstractAll: abstractAll.slice(0, n), authorsAll: authorsAll.slice(0, n) };
}

