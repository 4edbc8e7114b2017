import { z } from 'zod';
import { booleanQuery } from '@/lib/core/parse';

// zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), the one way this folder converts.
// Requests are shown as clients send them (io: input: a field with a default is optional); responses as
// the server sends them (io: output).

export type JsonSchema = { [keyword: string]: unknown };

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** Drops what does not belong inside an OpenAPI document, and zod's long date-time regex beside `format`. */
function tidy(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const override = (context: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
  if (context.jsonSchema.format === 'date-time') delete context.jsonSchema.pattern;
  if (context.zodSchema === booleanQuery) {
    for (const keyword of Object.keys(context.jsonSchema)) delete context.jsonSchema[keyword];
    context.jsonSchema.type = 'boolean';
  }
};

export function requestSchemaOf(schema: z.ZodType): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io: 'input', override }) as JsonSchema);
}

/** Every schema of a registry as a component, referring to each other by `#/components/schemas/{id}`. */
export function componentSchemasOf(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, override, uri: (id) => `${SCHEMA_REF_PREFIX}${id}` }) as {
    schemas: Record<string, JsonSchema>;
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, tidy(schema)]));
}

/** Whether a body schema has a field the client must send (so parameter_missing can happen). */
export function hasRequiredFields(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasRequiredFields);
  if (!schema || typeof schema !== 'object') return false;
  const { required, ...rest } = schema as JsonSchema;
  if (Array.isArray(required) && required.length > 0) return true;
  return Object.values(rest).some(hasRequiredFields);
}
