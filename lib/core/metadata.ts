import { z } from 'zod';
import type { Prisma } from '@/lib/generated/prisma/client';

// `metadata` (Stripe's rules): the merchant's own key/value pairs on checkout sessions, payments,
// refund requests and payment links. One schema for every body that takes it.

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;

export type Metadata = Record<string, string>;

const KEY_RULE = `must be 1–${METADATA_MAX_KEY_LENGTH} characters`;

/**
 * A JSON object of string values: at most 50 keys, each key 1–40 characters, each value at most 500. A bad
 * value is named `metadata.<key>`; a bad key, too many keys or anything but an object is `metadata` itself
 * (lib/core/parse.ts names a record's bad key by the record).
 */
export const metadataInput = z
  .record(
    z.string().min(1, KEY_RULE).max(METADATA_MAX_KEY_LENGTH, KEY_RULE),
    z
      .string({ error: 'must be a string' })
      .max(METADATA_MAX_VALUE_LENGTH, `must be at most ${METADATA_MAX_VALUE_LENGTH} characters`),
    { error: 'must be an object whose values are strings' },
  )
  .superRefine((metadata, context) => {
    const keys = Object.keys(metadata).length;
    if (keys > METADATA_MAX_KEYS) {
      context.addIssue({ code: 'custom', message: `has ${keys} keys; at most ${METADATA_MAX_KEYS} are allowed` });
    }
  })
  .meta({ maxProperties: METADATA_MAX_KEYS })
  .describe(
    `Your own key/value pairs: at most ${METADATA_MAX_KEYS} keys of 1–${METADATA_MAX_KEY_LENGTH} characters, string values of at most ${METADATA_MAX_VALUE_LENGTH}`,
  );

/** The field of every response object that has metadata. */
export const metadataField = z
  .record(z.string(), z.string())
  .describe('Your own key/value pairs, as you set them; {} when none');

/** A key given as "" means "no such key" (Stripe's rule): on a create there is nothing to remove, so it is left out. */
export function withoutEmptyValues(metadata: Metadata | undefined): Metadata {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([, value]) => value !== ''));
}

/** An update's metadata as the SQL merge takes it: the keys to set and the keys ("" values) to remove. */
export function metadataChanges(metadata: Metadata): { set: Metadata; remove: string[] } {
  const remove = Object.keys(metadata).filter((key) => metadata[key] === '');
  return { set: withoutEmptyValues(metadata), remove };
}

/** The stored column (jsonb, written only from metadataInput) as the objects show it. */
export function metadataOf(stored: Prisma.JsonValue): Metadata {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return stored as Metadata;
}

/**
 * A list's filter by one metadata pair, `?metadata[key]=value` (lib/http/query.ts makes it an object): the
 * objects whose metadata holds that pair exactly. One pair, a key as metadataInput takes it, a value that can
 * be stored (a stored value is never "").
 */
export const metadataQuery = z
  .record(
    z.string().min(1, KEY_RULE).max(METADATA_MAX_KEY_LENGTH, KEY_RULE),
    z
      .string()
      .min(1, 'must not be empty (a key set to "" is no key)')
      .max(METADATA_MAX_VALUE_LENGTH, `must be at most ${METADATA_MAX_VALUE_LENGTH} characters`),
    { error: 'give it as metadata[key]=value' },
  )
  .superRefine((pairs, context) => {
    const keys = Object.keys(pairs).length;
    if (keys !== 1) context.addIssue({ code: 'custom', message: `filters by one pair; ${keys} were given` });
  })
  .meta({ minProperties: 1, maxProperties: 1 })
  .describe(
    'Only objects whose metadata holds this one pair, given as `metadata[key]=value` (exact match, case included)',
  );

/** The filter as the jsonb the repositories' `"metadata" @> $n` takes. */
export function metadataContaining(pair: Metadata | undefined): string | undefined {
  return pair ? JSON.stringify(pair) : undefined;
}
