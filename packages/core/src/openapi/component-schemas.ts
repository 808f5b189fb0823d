import { Type } from '@sinclair/typebox';
import { PaperSchema } from '../paper-schema.js';
import { componentRef, toJsonSchema, type JsonObject } from './json-schema.js';

const nullableUrl = (description: string) =>
  Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description });

/** The body of a list answer, in the order it is written: count, next, previous, results. */
const PaperListSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'Number of matching papers across all pages.' }),
    next: nullableUrl('Absolute URL of the next page, or null on the last page.'),
    previous: nullableUrl('Absolute URL of the previous page, or null on the first page.'),
    results: Type.Array(Type.Unsafe(componentRef('schemas', 'Paper')), {
      description: 'The papers of this page, in order (with `fields`/`omit`, only the fields selected).',
    }),
    facets: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(
          Type.Object(
            { value: Type.Union([Type.String(), Type.Null()]), count: Type.Integer({ minimum: 1 }) },
            { additionalProperties: false },
          ),
        ),
        { description: 'With `facets=`: the buckets of each facet asked for, over every matching paper.' },
      ),
    ),
  },
  { additionalProperties: false, title: 'PaperList', description: 'One page of a list of papers.' },
);

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** The original API's `Task`: a task of a paper (from the Papers with Code dump). */
const TaskSchema = Type.Object(
  {
    id: Type.String({ description: 'The slug of the name: lower-case, runs of other characters than ASCII letters and digits made one `-`.' }),
    name: Type.String({ description: 'The task name, as the dump writes it.' }),
    description: Type.String({ description: 'Empty: the dump has no task descriptions.' }),
  },
  { additionalProperties: false, title: 'Task', description: 'A task a paper addresses.' },
);

/** The original API's `Method`, with the dump's extra fields. */
const MethodSchema = Type.Object(
  {
    id: Type.String({ description: 'The slug of the name (as a task id is made).' }),
    name: Type.String({ description: 'The short name.' }),
    full_name: Type.String({ description: 'The full name (empty when the dump has none).' }),
    description: Type.String({ description: 'The description (empty when the dump has none).' }),
    paper: nullableString('The id of the paper that introduced the method: not in the dump, always null.'),
    introduced_year: Type.Union([Type.Integer(), Type.Null()], { description: 'The year the method was introduced.' }),
    source_url: nullableString('Where the method was introduced.'),
    source_title: nullableString('The title of that source.'),
    code_snippet_url: nullableString('An implementation.'),
  },
  { additionalProperties: false, title: 'Method', description: 'A method a paper uses.' },
);

/** A page of items of one schema, as the list pages papers. */
const pageOf = (item: string, title: string) =>
  Type.Object(
    {
      count: Type.Integer({ minimum: 0, description: 'Number of items across all pages.' }),
      next: nullableUrl('Absolute URL of the next page, or null on the last page.'),
      previous: nullableUrl('Absolute URL of the previous page, or null on the first page.'),
      results: Type.Array(Type.Unsafe(componentRef('schemas', item)), { description: 'The items of this page, in the dump\'s order.' }),
    },
    { additionalProperties: false, title, description: `One page of ${item.toLowerCase()}s of a paper.` },
  );

/** The body of every error answer (and of the `301` redirect). */
const ErrorSchema = Type.Object(
  { detail: Type.String({ description: 'What went wrong, in English.' }) },
  { additionalProperties: false, title: 'Error', description: 'An error answer.' },
);

/** The body of an `OPTIONS` answer (Django REST Framework's `SimpleMetadata`). */
const MetadataSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    renders: Type.Array(Type.String(), { description: 'Media types the endpoint answers with.' }),
    parses: Type.Array(Type.String(), { description: 'Media types the endpoint would read a body in.' }),
  },
  { additionalProperties: false, title: 'Metadata', description: 'What an endpoint is and what it speaks.' },
);

/**
 * The document's `components.schemas`: `Paper` is the catalogue's own {@link PaperSchema}
 * (the one loaders validate with), the others describe the envelopes the handler writes.
 */
export function componentSchemas(): JsonObject {
  return {
    Paper: toJsonSchema(PaperSchema),
    PaperList: toJsonSchema(PaperListSchema),
    Error: toJsonSchema(ErrorSchema),
    Metadata: toJsonSchema(MetadataSchema),
    Task: toJsonSchema(TaskSchema),
    TaskList: toJsonSchema(pageOf('Task', 'TaskList')),
    Method: toJsonSchema(MethodSchema),
    MethodList: toJsonSchema(pageOf('Method', 'MethodList')),
  };
}
