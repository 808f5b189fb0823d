import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { RECORD_FORMATS, type RecordFormatOption } from '@paperlist/core';

/** Commander argument parsers: each throws `InvalidArgumentError`, which commander reports as a usage error. */

export function parsePort(value: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}

export function parsePositiveInteger(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer.');
  return n;
}

export function parseSeconds(value: string): number {
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new InvalidArgumentError('expected a number of seconds.');
  return n;
}

/**
 * Query threads by default: one per CPU and two more, so that a short query finds a thread while
 * long ones run (they share the cores; measured in docs/performance.md).
 */
export function defaultWorkers(): number {
  return availableParallelism() + 2;
}

/** Query threads: `auto` is {@link defaultWorkers}. */
export function parseWorkers(value: string): number {
  if (value === 'auto') return defaultWorkers();
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError('expected a number of query threads from 1 to 256, or "auto".');
  return n;
}

export function parseMilliseconds(value: string): number {
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds.');
  return n;
}

export function parseFormat(value: string): RecordFormatOption {
  if (!(RECORD_FORMATS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${RECORD_FORMATS.join(', ')}.`);
  }
  return value as RecordFormatOption;
}

/** `/api/v1`, `/api/v1/` and `api/v1` all give `/api/v1`; `/` gives `` (the root). */
export function parseMount(value: string): string {
  if (/[\s?#%\\]/.test(value)) throw new InvalidArgumentError('expected a URL path such as /api/v1, without spaces, query or "%".');
  const trimmed = value.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

/** Express's `trust proxy`: `true`, `false`, a number of hops, or addresses/subnets (`loopback`, `10.0.0.0/8, 127.0.0.1`). */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value.trim() === '') throw new InvalidArgumentError('expected true, false, a number of hops, or addresses.');
  return value;
}

export function parseDatabaseUrl(value: string): string {
  if (!/^postgres(ql)?:\/\//i.test(value)) throw new InvalidArgumentError('expected a postgres:// or postgresql:// URL.');
  return value;
}

/** Collects repeated options into one list (`--data a --data b`, `--data a b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
