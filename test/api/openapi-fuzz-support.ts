import fc from 'fast-check';
import type { JsonSchema } from '@/lib/openapi/json-schema';

// fast-check arbitraries built from the JSON Schemas of the served OpenAPI document (the subset its requests
// use, once their $refs are replaced by what they name: anyOf, oneOf, const, enum, string with lengths, pattern and the uri and email formats, integer and
// number with bounds, boolean, null, arrays with bounds and uniqueItems, objects with required fields,
// closed or with additionalProperties and propertyNames), and the ways to break exactly one rule of a valid
// value. The fuzz test (openapi-fuzz.test.ts) checks every value made here with ajv against the same
// schema, so a value called valid is valid by the document and a broken one is not.

/** A schema with every `$ref` replaced by what it names in the document (request schemas have no cycles). */
export function dereference(schema: unknown, document: unknown): any {
  if (Array.isArray(schema)) return schema.map((item) => dereference(item, document));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as JsonSchema;
  if (typeof $ref === 'string') {
    const target = $ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, segment) => at?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    if (target === undefined) throw new Error(`no ${$ref} in the document`);
    return dereference({ ...target, ...rest }, document);
  }
  return Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, dereference(item, document)]));
}

/** Whether a value matches a schema, by the validator the test holds answers to (ajv). */
export type Matches = (schema: JsonSchema, value: unknown) => boolean;

/** Values the test knows for a field (its own objects' ids, approved URLs), offered beside generated ones. */
export type Hints = (field: string) => unknown[];

/** One broken rule: where, which, and the whole value with it broken. */
export type Break = { path: string; rule: string; value: unknown };

const PRINTABLE = [...Array(95)].map((_, code) => String.fromCharCode(32 + code));

/**
 * One character as JSON Schema counts them (a code point): mostly printable ASCII, else any code point but
 * NUL, which the document refuses in every string (and fast-check's binary unit never makes a lone surrogate).
 */
const character = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PRINTABLE) },
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((char) => char !== '\u0000'),
);

const codePoints = (text: string) => [...text].length;

function lengthOf(min: number, max: number): fc.Arbitrary<number> {
  const near = Math.min(max, min + 24);
  return fc.oneof({ weight: 6, arbitrary: fc.integer({ min, max: near }) }, fc.constant(min), fc.constant(max));
}

// the largest safe integers: a bound the document leaves open is JSON's exact range
const SAFE = Number.MAX_SAFE_INTEGER;

/** Valid values of a schema, mixed with the values the test knows for the field. */
export function validArbitrary(schema: JsonSchema, matches: Matches, hints: Hints, field = ''): fc.Arbitrary<unknown> {
  const known = hints(field).filter((value) => matches(schema, value));
  const generated = generatedArbitrary(schema, matches, hints, field);
  return known.length === 0 ? generated : fc.oneof(generated, fc.constantFrom(...known));
}

function generatedArbitrary(node: JsonSchema, matches: Matches, hints: Hints, field: string): fc.Arbitrary<unknown> {
  const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => validArbitrary(variant, matches, hints, field)));
  if ('const' in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...node.enum);
  switch (node.type) {
    case 'string':
      return stringArbitrary(node, matches);
    case 'integer': {
      const min = Number(node.minimum ?? -SAFE);
      const max = Number(node.maximum ?? SAFE);
      return fc.oneof({ weight: 6, arbitrary: fc.integer({ min, max }) }, fc.constant(min), fc.constant(max));
    }
    case 'number': {
      const min = Number(node.minimum ?? -1e9);
      const max = Number(node.maximum ?? 1e9);
      const inside = fc.double({ min, max, noNaN: true }).map((value) => (Object.is(value, -0) ? 0 : value));
      return fc.oneof({ weight: 6, arbitrary: inside }, fc.constant(min), fc.constant(max));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = validArbitrary(node.items as JsonSchema, matches, hints, `${field}[]`);
      const minLength = Number(node.minItems ?? 0);
      const maxLength = Math.min(Number(node.maxItems ?? 4), minLength + 4);
      return node.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(node, matches, hints, field);
    default:
      throw new Error(`the fuzz test has no generator for ${JSON.stringify(node).slice(0, 200)}`);
  }
}

function stringArbitrary(node: JsonSchema, matches: Matches): fc.Arbitrary<string> {
  const minLength = Number(node.minLength ?? 0);
  const maxLength = Number(node.maxLength ?? 1000);
  const fits = (text: string) => codePoints(text) >= minLength && codePoints(text) <= maxLength;
  // a format or pattern is held to the validator's reading of it
  const valid = (text: string) => fits(text) && matches(node, text);
  if (node.format === 'uri') {
    // a URI of any scheme: where only http and https are taken, the document must say so
    return fc
      .oneof({ weight: 5, arbitrary: fc.webUrl() }, fc.webUrl({ validSchemes: ['ftp', 'ws', 'file', 'mailto'] }))
      .filter(valid);
  }
  if (typeof node.pattern === 'string') {
    // xsmall: patterns with open repetitions would otherwise overrun the length most of the time
    return fc.stringMatching(new RegExp(node.pattern, 'u'), { size: 'xsmall' }).filter(valid);
  }
  if (node.format === 'email') return fc.emailAddress().filter(valid);
  const text = lengthOf(minLength, maxLength).chain((length) =>
    fc.array(character, { minLength: length, maxLength: length }).map((chars) => chars.join('')),
  );
  const blank = ' '.repeat(Math.max(minLength, 1));
  return blank.length <= maxLength ? fc.oneof({ weight: 9, arbitrary: text }, fc.constant(blank)) : text;
}

function objectArbitrary(node: JsonSchema, matches: Matches, hints: Hints, field: string): fc.Arbitrary<unknown> {
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const open = node.additionalProperties;
  if (!open || typeof open !== 'object' || Object.keys(properties).length > 0) {
    const fields: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        validArbitrary(property, matches, hints, field ? `${field}.${name}` : name),
      ]),
    );
    const required = ((node.required ?? []) as string[]).filter((name) => name in fields);
    return fc.record(fields, { requiredKeys: required });
  }
  // a map of the caller's own keys (metadata): keys by propertyNames, at most maxProperties of them
  const names = (node.propertyNames ?? { type: 'string' }) as JsonSchema;
  const entry = fc.tuple(stringArbitrary(names, matches), stringArbitrary(open as JsonSchema, matches));
  const maxKeys = Number(node.maxProperties ?? 5);
  const some = fc.uniqueArray(entry, { maxLength: Math.min(maxKeys, 5), selector: ([key]) => key });
  const full = fc.uniqueArray(entry, { minLength: maxKeys, maxLength: maxKeys, selector: ([key]) => key });
  return fc.oneof({ weight: 6, arbitrary: some }, full).map((pairs) => Object.fromEntries(pairs));
}

// --- one rule broken ---------------------------------------------------------------------------------------

/** The rule of info.description: no string holds NUL. */
export const NUL_RULE = 'no NUL (info.description)';

const SAMPLES: unknown[] = ['text', 7, 1.5, true, null, [], {}];

/** JSON's type of a value, as JSON Schema's `type` names it. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function allowedTypes(node: JsonSchema): Set<string> {
  const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (variants) return new Set(variants.flatMap((variant) => [...allowedTypes(variant)]));
  if ('const' in node) return new Set([typeOf(node.const)]);
  if (Array.isArray(node.enum)) return new Set(node.enum.map(typeOf));
  const type = String(node.type);
  return new Set(type === 'number' ? ['number', 'integer'] : [type]);
}

const setAt = (whole: unknown, path: (string | number)[], value: unknown): unknown => {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(whole)) return whole.map((item, index) => (index === head ? setAt(item, rest, value) : item));
  return { ...(whole as object), [head]: setAt((whole as Record<string, unknown>)[head], rest, value) };
};

const DROP = Symbol('drop');
const withoutDropped = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, item]) => item !== DROP)
          .map(([key, item]) => [key, withoutDropped(item)]),
      )
    : Array.isArray(value)
      ? value.map(withoutDropped)
      : value;

/**
 * Every way to break one rule of `value` (valid for `schema`): a wrong type, a missing required field, a
 * number or length or count out of range, a value outside the enum, a string off its pattern or format, a
 * repeated item where items are unique, a field a closed object does not take. `matches` says whether a
 * value matches a schema (ajv), to find the variant of an anyOf or oneOf the value took.
 */
export function breaksOf(schema: JsonSchema, value: unknown, matches: Matches): Break[] {
  const found: Break[] = [];
  const walk = (node: JsonSchema, at: unknown, path: (string | number)[]) => {
    const name = path.join('.') || '(body)';
    const add = (rule: string, broken: unknown) => found.push({ path: name, rule, value: setAt(value, path, broken) });
    const allowed = allowedTypes(node);
    for (const sample of SAMPLES) {
      const type = typeOf(sample);
      if (!allowed.has(type) && !(type === 'integer' && allowed.has('number')))
        add(`not ${[...allowed].join(' or ')}`, sample);
    }
    const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
    if (variants) {
      const taken = variants.find((variant) => matches(variant, at));
      if (taken) walk(taken, at, path);
      return;
    }
    if ('const' in node) return add('const', `${String(node.const)}_x`);
    if (Array.isArray(node.enum)) return add('enum', `${String(node.enum[0])}_x`);
    if (typeof at === 'string') {
      // the document's one rule for every string (info.description), which JSON Schema cannot state
      add(NUL_RULE, at.length > 0 ? `${[...at].slice(0, -1).join('')}\u0000` : '\u0000');
      if (node.minLength !== undefined && Number(node.minLength) > 0)
        add('minLength', [...at].slice(0, Number(node.minLength) - 1).join('') || '');
      if (node.maxLength !== undefined) add('maxLength', at + 'x'.repeat(Number(node.maxLength) + 1 - codePoints(at)));
      if (typeof node.pattern === 'string') {
        const pattern = new RegExp(node.pattern, 'u');
        const off = [`${at}\u0007`, `!${at}`, '\u00e9', '~', ''].find(
          (candidate) => !pattern.test(candidate) && codePoints(candidate) <= Number(node.maxLength ?? Infinity),
        );
        if (off !== undefined) add('pattern', off);
      }
      if (node.format === 'uri') add('format uri', 'not a url');
      if (node.format === 'email') add('format email', 'nobody');
    }
    if (typeof at === 'number') {
      if (node.minimum !== undefined) add('minimum', Number(node.minimum) - 1);
      if (node.maximum !== undefined) add('maximum', Number(node.maximum) + 1);
      if (node.type === 'integer' && Math.abs(at) < 2 ** 52) add('integer', at + 0.5);
    }
    if (Array.isArray(at)) {
      const min = Number(node.minItems ?? 0);
      if (min > 0) add('minItems', at.slice(0, min - 1));
      if (node.maxItems !== undefined && at.length > 0) {
        const max = Number(node.maxItems);
        add('maxItems', [...at, ...Array.from({ length: max + 1 - at.length }, (_, index) => at[index % at.length])]);
      }
      if (node.uniqueItems && at.length > 0 && at.length < Number(node.maxItems ?? Infinity))
        add('uniqueItems', [...at, at[0]]);
      at.slice(0, 2).forEach((item, index) => walk(node.items as JsonSchema, item, [...path, index]));
    }
    if (at && typeof at === 'object' && !Array.isArray(at)) {
      const record = at as Record<string, unknown>;
      const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
      for (const required of (node.required ?? []) as string[])
        add(`required ${required}`, { ...record, [required]: DROP });
      if (node.additionalProperties === false) add('additionalProperties', { ...record, unexpected_field: 1 });
      const open = node.additionalProperties;
      if (open && typeof open === 'object') {
        const names = (node.propertyNames ?? {}) as JsonSchema;
        if (names.minLength) add('propertyNames minLength', { ...record, '': 'x' });
        if (names.maxLength)
          add('propertyNames maxLength', { ...record, ['k'.repeat(Number(names.maxLength) + 1)]: 'x' });
        if (node.maxProperties !== undefined) {
          const extra = Object.fromEntries(
            Array.from({ length: Number(node.maxProperties) + 1 }, (_, index) => [`extra_${index}`, 'x']),
          );
          add('maxProperties', { ...record, ...extra });
        }
        for (const key of Object.keys(record).slice(0, 2)) walk(open as JsonSchema, record[key], [...path, key]);
      }
      for (const [key, property] of Object.entries(properties))
        if (record[key] !== undefined) walk(property, record[key], [...path, key]);
    }
  };
  walk(schema, value, []);
  return found.map((broken) => ({ ...broken, value: withoutDropped(broken.value) }));
}
