import type { JsonSchema } from './json-schema';

// Two changes the zod conversion cannot make, laid onto its JSON Schemas.

/** Every subschema of a schema, itself included, depth first. */
function* subschemas(node: unknown): Generator<JsonSchema> {
  if (Array.isArray(node)) {
    for (const item of node) yield* subschemas(item);
  } else if (node && typeof node === 'object') {
    yield node as JsonSchema;
    for (const value of Object.values(node)) yield* subschemas(value);
  }
}

/**
 * Responses and events stay open to fields added later, as /docs#objects promises ("ignore the ones you do
 * not know"): a client validating answers against the document must not break the day one appears. The zod
 * objects stay strict, so lib/openapi/objects.test.ts still catches a field that is sent but not documented.
 */
export function openObjects(schema: JsonSchema): JsonSchema {
  for (const node of subschemas(schema)) if (node.additionalProperties === false) delete node.additionalProperties;
  return schema;
}

/**
 * A request field with a default is one the client may leave out, but openapi-typescript (default settings)
 * types any property with `default` under components.schemas as required. The default moves into the
 * field's description, where /docs shows it too.
 */
export function defaultsIntoDescriptions(schema: JsonSchema): JsonSchema {
  for (const node of subschemas(schema)) {
    for (const field of Object.values((node.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!('default' in field)) continue;
      const sentence = `Default \`${JSON.stringify(field.default)}\`.`;
      field.description = field.description ? `${String(field.description).replace(/\.$/, '')}. ${sentence}` : sentence;
      delete field.default;
    }
  }
  return schema;
}
