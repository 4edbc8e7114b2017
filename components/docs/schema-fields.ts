import type { JsonSchema } from '@/lib/openapi/json-schema';

// Reads the document's JSON Schemas into what a person reads: a type label, its limits in words, and one
// row per field (nested objects and arrays of objects flattened into dotted names).

export type FieldRow = {
  name: string;
  type: string;
  ref?: string;
  required: boolean;
  description?: string;
  limits: string[];
};

const REF_PREFIX = '#/components/schemas/';

export function refName(schema: JsonSchema): string | undefined {
  return typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX)
    ? schema.$ref.slice(REF_PREFIX.length)
    : undefined;
}

const variantsOf = (schema: JsonSchema) => ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? [];

export function typeLabel(schema: JsonSchema): string {
  const ref = refName(schema);
  if (ref) return ref;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = variantsOf(schema);
  if (variants.length > 0) return [...new Set(variants.map(typeLabel))].join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `array of ${typeLabel((schema.items as JsonSchema) ?? {})}`;
  if (schema.type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function range(min: unknown, max: unknown, unit = ''): string | undefined {
  const suffix = unit ? ` ${unit}` : '';
  if (typeof min === 'number' && typeof max === 'number')
    return `${min.toLocaleString('en-US')}–${max.toLocaleString('en-US')}${suffix}`;
  if (typeof min === 'number') return `at least ${min.toLocaleString('en-US')}${suffix}`;
  if (typeof max === 'number') return `at most ${max.toLocaleString('en-US')}${suffix}`;
  return undefined;
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

export function limitsOf(schema: JsonSchema): string[] {
  const limits = [
    range(schema.minLength, schema.maxLength, 'characters'),
    range(
      schema.minimum === -SAFE_INTEGER ? undefined : schema.minimum,
      schema.maximum === SAFE_INTEGER ? undefined : schema.maximum,
    ),
    range(schema.minItems, schema.maxItems, 'items'),
    typeof schema.pattern === 'string' ? `matches ${schema.pattern}` : undefined,
    'default' in schema ? `default ${JSON.stringify(schema.default)}` : undefined,
  ];
  const nonNull = variantsOf(schema).filter((variant) => variant.type !== 'null');
  if (nonNull.length === 1) limits.push(...limitsOf(nonNull[0]));
  if (schema.type === 'array' && schema.items) limits.push(...limitsOf(schema.items as JsonSchema));
  return limits.filter((limit): limit is string => Boolean(limit));
}

/** The object (or objects, for a union) inside a field whose fields deserve rows of their own. */
function nestedObjects(schema: JsonSchema): JsonSchema[] {
  if (schema.type === 'object' && schema.properties) return [schema];
  if (schema.type === 'array' && schema.items) return nestedObjects(schema.items as JsonSchema);
  return variantsOf(schema).flatMap(nestedObjects);
}

export function fieldRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).flatMap(([name, field]) => {
    const path = prefix + name;
    const row: FieldRow = {
      name: path,
      type: typeLabel(field),
      ref: refName(field),
      required: required.has(name),
      description: typeof field.description === 'string' ? field.description : undefined,
      limits: limitsOf(field),
    };
    const childPrefix = `${path}${field.type === 'array' ? '[]' : ''}.`;
    return [row, ...nestedObjects(field).flatMap((nested) => fieldRows(nested, childPrefix))];
  });
}

/**
 * Rows of an object, or of a union of objects merged field by field (the event envelope: `type` is one
 * of the types, `data.object` one of the resources); a field is required when every variant requires it.
 */
export function objectRows(schema: JsonSchema): FieldRow[] {
  const variants = variantsOf(schema);
  if (variants.length === 0) return fieldRows(schema);
  const merged = new Map<string, FieldRow>();
  const perVariant = variants.map((variant) => fieldRows(variant));
  for (const rows of perVariant) {
    for (const row of rows) {
      const seen = merged.get(row.name);
      if (!seen) merged.set(row.name, { ...row, ref: row.ref });
      else if (seen.type !== row.type)
        merged.set(row.name, {
          ...seen,
          ref: undefined,
          type: [...new Set([...seen.type.split(' | '), row.type])].join(' | '),
        });
    }
  }
  return [...merged.values()].map((row) => ({
    ...row,
    required: perVariant.every((rows) => rows.some((candidate) => candidate.name === row.name && candidate.required)),
  }));
}
