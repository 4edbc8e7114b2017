import { z } from 'zod';
import { MAX_AMOUNT } from './money';
import { ApiError, errors } from './errors';

/** What a person is told of a field a schema refused, by its param, when the caller has words of its own. */
export type ParamSentences = Readonly<Partial<Record<string, string>>>;

// a schema's refusal beside the field it names: the field says what it is about
const CHECK_THIS = 'Check this and try again.';
const FILL_THIS_IN = 'Fill this in and try again.';
const NOT_OUR_FORM = 'This form sent something it should not. Reload the page and try again.';

/**
 * Validates input against a zod schema; the first issue becomes a 400 with a dotted `param`. Its sentence for
 * a person is `sentences[param]` when the caller gives one, else a plain one for a field.
 */
export function parse<T extends z.ZodType>(schema: T, input: unknown, sentences: ParamSentences = {}): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw toApiError(result.error.issues[0], input, sentences);
}

function toApiError(issue: z.core.$ZodIssue, input: unknown, sentences: ParamSentences): ApiError {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = [...path, issue.keys[0]].join('.');
    return errors.parameterUnknown(`Unknown parameter: ${param}`, param, NOT_OUR_FORM);
  }
  if (issue.code === 'invalid_key') {
    // a bad key of a record (metadata) is the record's fault: a key is not a parameter of its own
    const param = path.slice(0, -1).join('.');
    const key = String(issue.path.at(-1));
    const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
    return errors.parameterInvalid(
      `Invalid ${param}: key "${shown}" ${issue.issues[0]?.message ?? 'is invalid'}`,
      param,
      sentences[param] ?? CHECK_THIS,
    );
  }
  const param = path.join('.') || undefined;
  const said = param === undefined ? undefined : (sentences[param] ?? sentences[path[0]]);
  if (param && valueAt(input, issue.path) === undefined) {
    return errors.parameterMissing(`Missing required parameter: ${param}`, param, said ?? FILL_THIS_IN);
  }
  return errors.parameterInvalid(
    param ? `Invalid ${param}: ${lowerFirst(issue.message)}` : issue.message,
    param,
    said ?? (param ? CHECK_THIS : NOT_OUR_FORM),
  );
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// Shared field schemas.
export const amountSchema = z.number().int().min(0).max(MAX_AMOUNT);
export const positiveAmountSchema = z
  .number()
  .int()
  .min(1, 'must be positive: at least 1, in minor units')
  .max(MAX_AMOUNT);

/**
 * What zod's URL check with `protocol: /^https?$/` takes, as the document says it (a JSON Schema `format: uri`
 * is any scheme, and may have no host): http or https in any case, then a host.
 */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#:@]';

/**
 * Text that must say something: trimmed, then 1 to `max` characters. The document's pattern says a blank one
 * is refused (JavaScript's trim and `\s` know the same white space).
 */
export function nonBlankText(max: number) {
  return z.string().trim().min(1).max(max).meta({ pattern: '\\S' });
}

/**
 * A yes-or-no filter of a query string, `true` or `false`. The document types it as a boolean (the query
 * string carries its JSON text), so a generated client passes `true`, not `'true'` (lib/openapi/json-schema.ts).
 */
export const booleanQuery = z.enum(['true', 'false']);

/** A list's query: limit 1–100 (default 10) and starting_after, plus the endpoint's own filters. */
export function listQuerySchema<T extends z.core.$ZodLooseShape>(filters: T) {
  return z.strictObject({
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().max(64).optional(),
    ...filters,
  });
}
