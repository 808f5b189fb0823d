/**
 * The venue of a paper, derived from its `proceeding`. Papers with Code wrote proceedings as
 * a venue followed by a year and usually a month: `acl-2020-7`, `naacl-2019-6`, `ws-2015-9`,
 * `lrec-2016` (no month known), or with spaces, `NeurIPS 2018 12`. The venue key is what is
 * left once that date is removed, lower-cased.
 */

/** The separators between a venue and the numbers of its date. */
const isSeparator = (code: number) => code === 0x20 || code === 0x2d || code === 0x5f; // space - _
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * The venue key of a proceeding: its trailing date removed (the longest suffix made of groups
 * of separators (space, `-`, `_`) each followed by digits), then ASCII letters lower-cased.
 * Only ASCII is lower-cased so that every source derives the same key whatever its locale
 * (PostgreSQL uses `translate` for it). `null` when nothing is left (no venue).
 *
 * @example venueKey('acl-2020-7') // 'acl'
 * @example venueKey('NeurIPS 2018 12') // 'neurips'
 * @example venueKey('nlpcovid19-2020-7') // 'nlpcovid19' (digits inside the name stay)
 */
export function venueKey(proceeding: string | null): string | null {
  if (proceeding === null) return null;
  let end = proceeding.length;
  for (;;) {
    let i = end;
    while (i > 0 && isDigit(proceeding.charCodeAt(i - 1))) i--;
    if (i === end) break;
    let j = i;
    while (j > 0 && isSeparator(proceeding.charCodeAt(j - 1))) j--;
    if (j === i) break;
    end = j;
  }
  const key = asciiLowerCase(proceeding.slice(0, end));
  return key === '' ? null : key;
}

/** ASCII letters lower-cased, every other character kept. */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/** The operator's venue aliases by default: `nips` is the old name of `neurips`. */
export const DEFAULT_VENUE_ALIASES: Readonly<Record<string, string>> = { nips: 'neurips' };

/**
 * The venue keys a `venue=` value stands for: the key itself (trimmed, ASCII lower-cased),
 * resolved through the aliases (`nips` → `neurips`), and every key that is an alias of the
 * same venue, so `venue=neurips` also finds papers whose proceeding says `NIPS 2017`.
 *
 * @example venueKeysFor('NIPS', { nips: 'neurips' }) // ['neurips', 'nips']
 */
export function venueKeysFor(value: string, aliases: Readonly<Record<string, string>>): string[] {
  const key = asciiLowerCase(value.trim());
  const canonical = Object.hasOwn(aliases, key) ? aliases[key]! : key;
  const keys = new Set([canonical]);
  for (const [alias, target] of Object.entries(aliases)) if (target === canonical) keys.add(alias);
  return [...keys].sort();
}
