import { z } from 'zod';
import { metadataInput } from '@/lib/core/metadata';
import { booleanQuery, HTTP_URL_PATTERN, listQuerySchema, nonBlankText, positiveAmountSchema } from '@/lib/core/parse';
import { CURRENCIES, paymentMethodsInput } from '@/lib/checkout-sessions/schemas';

// Request bodies of /v1/payment-links (/docs#objects). Strict: an unknown field is parameter_unknown.

const linkName = nonBlankText(200);
// null (or blank) clears it
const linkDescription = z.string().trim().max(1000).nullable();
// the customer is sent here after paying: web addresses only, and the service checks the host
const afterPaymentUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ pattern: HTTP_URL_PATTERN });

/**
 * Stripe's adjustable_quantity: with `enabled`, the customer chooses how many on the link's page, from
 * `minimum` (default 1) to `maximum` (default 99), at most 10,000 as a session's item takes.
 */
export const adjustableQuantityInput = z
  .strictObject({
    enabled: z.boolean(),
    minimum: z.number().int().min(1).max(10_000).optional(),
    maximum: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((quantity) => (quantity.minimum ?? 1) <= (quantity.maximum ?? 99), {
    message: 'minimum must not be more than maximum',
    path: ['minimum'],
  });

export type AdjustableQuantityInput = z.output<typeof adjustableQuantityInput>;

export const createPaymentLinkInput = z.strictObject({
  name: linkName,
  amount: positiveAmountSchema,
  currency: z.enum(CURRENCIES),
  description: linkDescription.optional(),
  payment_methods: paymentMethodsInput.optional(),
  after_payment_url: afterPaymentUrl.nullish(),
  active: z.boolean().default(true),
  metadata: metadataInput.optional(),
  adjustable_quantity: adjustableQuantityInput.optional(),
});

export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkInput>;

/**
 * What the API may change once a link is shared: its words, whether it is on, its metadata and the quantities
 * offered (a new adjustable_quantity replaces the old, with create's defaults). Not its price: as Stripe's
 * payment link keeps its line item's price, a new price is the merchant's own step in the dashboard, where the
 * amount is read back and confirmed first (updatePaymentLinkWithPriceInput).
 */
export const updatePaymentLinkInput = z.strictObject({
  name: linkName.optional(),
  description: linkDescription.optional(),
  active: z.boolean().optional(),
  // merged: given keys are set, a key given as "" is removed, the others stay
  metadata: metadataInput.optional(),
  adjustable_quantity: adjustableQuantityInput.optional(),
});

export type UpdatePaymentLinkInput = z.output<typeof updatePaymentLinkInput>;

/** The dashboard's edit: the API's fields and a new price. Checkouts already started keep the price they had. */
export const updatePaymentLinkWithPriceInput = updatePaymentLinkInput.extend({
  amount: positiveAmountSchema.optional(),
});

export type UpdatePaymentLinkWithPriceInput = z.output<typeof updatePaymentLinkWithPriceInput>;

export const listPaymentLinksQuery = listQuerySchema({
  active: booleanQuery.optional(),
});
