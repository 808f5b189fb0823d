/**
 * The date range filters: `published_after`, `published_before` and `year`. Every bound is
 * a calendar day `YYYY-MM-DD`; a stored `published` is one too, so days compare as strings.
 */

/** An inclusive range of days; a missing side is open. */
export interface DayRange {
  /** First day, `YYYY-MM-DD`. */
  from?: string;
  /** Last day, `YYYY-MM-DD`. */
  to?: string;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const YEAR = /^(\d{4})?(-)?(\d{4})?$/;

/** Days in `month` (1-12) of `year`, Gregorian. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * A date bound as a day: `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (spaces around ignored, as Django's
 * DateField does). A partial date stands for its first day as a lower bound (`edge` `first`)
 * and its last day as an upper bound (`last`): `2020-02` is 2020-02-01 or 2020-02-29.
 * `null` when the value is no real date (`2019-02-30`, `2020-13`, `0000`).
 *
 * @example dayBound('2020-02', 'last') // '2020-02-29'
 */
export function dayBound(value: string, edge: 'first' | 'last'): string | null {
  const match = DATE.exec(value.trim());
  if (match === null) return null;
  const year = Number(match[1]);
  if (year < 1) return null;
  const month = match[2] === undefined ? (edge === 'first' ? 1 : 12) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  const last = daysInMonth(year, month);
  const day = match[3] === undefined ? (edge === 'first' ? 1 : last) : Number(match[3]);
  if (day < 1 || day > last) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * A `year` value as a range of days: `2020`, `2016-2020`, `2010-` (from 2010 on), `-2015`
 * (up to the end of 2015); years of four digits. `null` when the value is none of these.
 * A reversed range (`2020-2016`) is valid and matches nothing, like `published_after` after
 * `published_before`.
 *
 * @example yearRange('2016-2020') // { from: '2016-01-01', to: '2020-12-31' }
 */
export function yearRange(value: string): DayRange | null {
  const match = YEAR.exec(value.trim());
  if (match === null) return null;
  const [, first, dash, second] = match;
  if (first === undefined && second === undefined) return null;
  if (dash === undefined && second !== undefined) return null; // two years without a dash cannot match YEAR anyway
  const range: DayRange = {};
  if (first !== undefined) {
    if (Number(first) < 1) return null;
    range.from = `${first}-01-01`;
    if (dash === undefined) range.to = `${first}-12-31`;
  }
  if (second !== undefined) {
    if (Number(second) < 1) return null;
    range.to = `${second}-12-31`;
  }
  return range;
}

/** The days in every range (the latest start, the earliest end). */
export function intersectRanges(ranges: readonly DayRange[]): DayRange {
  const out: DayRange = {};
  for (const range of ranges) {
    if (range.from !== undefined && (out.from === undefined || range.from > out.from)) out.from = range.from;
    if (range.to !== undefined && (out.to === undefined || range.to < out.to)) out.to = range.to;
  }
  return out;
}

/**
 * Whether a paper's `published` is in the range. Undated papers never are: a filter by date
 * asks for papers known to fall in it.
 */
export function publishedInRange(published: string | null, from: string | undefined, to: string | undefined): boolean {
  if (published === null) return false;
  return (from === undefined || published >= from) && (to === undefined || published <= to);
}

/** A day `YYYY-MM-DD` as the number `YYYYMMDD` (the same order). */
export function dayNumber(day: string): number {
  return Number(day.slice(0, 4)) * 10000 + Number(day.slice(5, 7)) * 100 + Number(day.slice(8, 10));
}
