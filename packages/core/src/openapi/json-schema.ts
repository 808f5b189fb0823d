import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema (2020-12) or OpenAPI object, as plain JSON. */
export type JsonObject = { [key: string]: JsonValue };
/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/**
 * A TypeBox schema as plain JSON Schema: TypeBox marks its schemas with symbol keys, which a
 * JSON round trip drops; what is left is standard JSON Schema.
 */
export function toJsonSchema(schema: TSchema): JsonObject {
  return JSON.parse(JSON.stringify(schema)) as JsonObject;
}

/** A `$ref` to a component of the document. */
export function componentRef(kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string): JsonObject {
  return { $ref: `#/components/${kind}/${name}` };
}
