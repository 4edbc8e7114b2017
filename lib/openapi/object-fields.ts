import { z } from 'zod';
import { CURRENCIES } from '@/lib/checkout-sessions/schemas';
import { ID_PREFIXES, type IdKind } from '@/lib/core/ids';
import { MAX_AMOUNT } from '@/lib/core/money';

// Building blocks of the response objects (lib/*/objects.ts). They are strict, so an object that gains a
// field fails lib/openapi/objects.test.ts until the field is documented here.

export function objectId(kind: IdKind, description?: string) {
  const schema = z.string().regex(new RegExp(`^${ID_PREFIXES[kind]}[0-9A-Za-z]{24}$`));
  return description ? schema.describe(description) : schema;
}

export function timestamp(description: string) {
  return z.iso.datetime({ precision: 3 }).describe(`${description} (ISO 8601 UTC, milliseconds)`);
}

export function minorUnits(description: string) {
  return z.number().int().min(0).max(MAX_AMOUNT).describe(`${description}, in minor units (cents)`);
}

export const currency = z.enum(CURRENCIES).describe('Three-letter code: CAD or USD');

/** A page of a list endpoint, newest first (/docs#pagination). */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z
      .boolean()
      .describe('Whether another page follows; ask for it with starting_after = the last id of this one'),
  });
}
