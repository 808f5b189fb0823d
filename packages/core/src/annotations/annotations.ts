/**
 * What the Papers with Code dump says about a paper beyond its 13 fields: the tasks it addresses
 * and the methods it uses. Annotations travel *beside* papers (a map keyed by paper id), never in
 * them, so the list and detail bodies stay exactly the 13 fields.
 */

/** One method of a paper, as the dump's `methods` entries give it (missing fields are `null`). */
export interface MethodRecord {
  name: string;
  full_name: string | null;
  description: string | null;
  introduced_year: number | null;
  source_url: string | null;
  source_title: string | null;
  code_snippet_url: string | null;
}

/** A paper's tasks (names) and methods, in the dump's order, without repeats of the same slug. */
export interface PaperAnnotations {
  tasks: string[];
  methods: MethodRecord[];
}

/** Annotations by paper id: what loaders fill and sources take (`annotations` option). */
export type AnnotationMap = ReadonlyMap<string, PaperAnnotations>;

/** Most characters of a slug kept (longer ones are cut). */
const MAX_SLUG_LENGTH = 200;

/**
 * The slug of a task or method name, like the original site's ids: lower-case, every run of
 * characters other than ASCII letters and digits becomes one `-`, none at either end
 * (`Image Classification` → `image-classification`, `Q-Learning` → `q-learning`). Accents are
 * dropped first (`Réseau` → `reseau`).
 */
export function nameSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH);
}

/** The distinct slugs of a paper's task names (empty slugs dropped), in first-seen order. */
export function taskSlugs(annotations: PaperAnnotations | undefined): string[] {
  return annotations === undefined ? [] : distinctSlugs(annotations.tasks);
}

/** The distinct slugs of a paper's method names (empty slugs dropped), in first-seen order. */
export function methodSlugs(annotations: PaperAnnotations | undefined): string[] {
  return annotations === undefined ? [] : distinctSlugs(annotations.methods.map((m) => m.name));
}

/**
 * A paper's annotations as sources keep them: entries whose name has no slug dropped, and only
 * the first entry of each slug kept (what `readPwcAnnotations` already gives).
 */
export function normalizeAnnotations(annotations: PaperAnnotations): PaperAnnotations {
  const firstOfSlug = <T>(entries: readonly T[], nameOf: (entry: T) => string): T[] => {
    const seen = new Set<string>();
    return entries.filter((entry) => {
      const slug = nameSlug(nameOf(entry));
      if (slug === '' || seen.has(slug)) return false;
      seen.add(slug);
      return true;
    });
  };
  return { tasks: firstOfSlug(annotations.tasks, (name) => name), methods: firstOfSlug(annotations.methods, (method) => method.name) };
}

/** {@link normalizeAnnotations}, or `undefined` for none or for annotations with nothing left. */
export function keptAnnotations(annotations: PaperAnnotations | undefined): PaperAnnotations | undefined {
  if (annotations === undefined) return undefined;
  const kept = normalizeAnnotations(annotations);
  return kept.tasks.length === 0 && kept.methods.length === 0 ? undefined : kept;
}

function distinctSlugs(names: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const name of names) {
    const slug = nameSlug(name);
    if (slug !== '') seen.add(slug);
  }
  return [...seen];
}

/**
 * The annotations of a Papers with Code dump record (its `tasks` and `methods`), read
 * defensively: a task is a string (or an object with a string `name`); a method an object with a
 * string `name`, its other fields kept when they have the expected type, `null` otherwise.
 * Entries without a usable name, and repeats of a slug, are dropped. `undefined` when the record
 * has neither tasks nor methods.
 */
export function readPwcAnnotations(record: Readonly<Record<string, unknown>>): PaperAnnotations | undefined {
  const tasks: string[] = [];
  const taskSeen = new Set<string>();
  for (const entry of arrayOf(record['tasks'])) {
    const name = typeof entry === 'string' ? entry : isObject(entry) && typeof entry['name'] === 'string' ? entry['name'] : undefined;
    if (name === undefined) continue;
    const slug = nameSlug(name);
    if (slug === '' || taskSeen.has(slug)) continue;
    taskSeen.add(slug);
    tasks.push(name);
  }
  const methods: MethodRecord[] = [];
  const methodSeen = new Set<string>();
  for (const entry of arrayOf(record['methods'])) {
    if (!isObject(entry) || typeof entry['name'] !== 'string') continue;
    const slug = nameSlug(entry['name']);
    if (slug === '' || methodSeen.has(slug)) continue;
    methodSeen.add(slug);
    const year = entry['introduced_year'];
    methods.push({
      name: entry['name'],
      full_name: stringOrNull(entry['full_name']),
      description: stringOrNull(entry['description']),
      introduced_year: typeof year === 'number' && Number.isInteger(year) ? year : null,
      source_url: stringOrNull(entry['source_url']),
      source_title: stringOrNull(entry['source_title']),
      code_snippet_url: stringOrNull(entry['code_snippet_url']),
    });
  }
  return tasks.length === 0 && methods.length === 0 ? undefined : { tasks, methods };
}

function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
