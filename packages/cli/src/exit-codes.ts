/**
 * The exit codes of `paperlist`, for scripts. They are part of the CLI's contract: a code keeps
 * its meaning across versions.
 */
export const EXIT = {
  /** Success; also after a graceful shutdown on SIGTERM or SIGINT. */
  OK: 0,
  /** Invalid data: `validate` found invalid records, or a catalogue could not be loaded because of one. */
  INVALID_DATA: 1,
  /** Usage error: unknown command or option, a bad option value, a missing argument. */
  USAGE: 2,
  /** An input file cannot be read: missing, unreadable, a directory. */
  INPUT: 3,
  /** The database cannot be reached or refused an operation. */
  DATABASE: 4,
  /** The server cannot listen: the address is in use or not available. */
  SERVER: 5,
  /** An unexpected internal error (a bug: please report it, with `--verbose` output). */
  INTERNAL: 70,
  /** Interrupted: an import cancelled by SIGINT/SIGTERM, or a second SIGINT (Ctrl-C) cut a graceful shutdown short. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** One line per code, for `--help`. */
export const EXIT_CODES_HELP = `Exit codes:
  0   success (also after a graceful shutdown on SIGTERM or SIGINT)
  1   invalid data (validate found invalid records; a catalogue failed to load)
  2   usage error (unknown command or option, bad option value)
  3   an input file cannot be read
  4   database error (cannot connect, migrate or import)
  5   the server cannot listen (address in use or not available)
  70  internal error (a bug: please report it with --verbose output)
  130 interrupted (an import cancelled by Ctrl-C or SIGTERM; a second Ctrl-C during a shutdown)`;
