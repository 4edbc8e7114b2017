import { z } from 'zod';
import { metadataInput, metadataQuery } from '@/lib/core/metadata';
import { amountSchema, HTTP_URL_PATTERN, listQuerySchema, nonBlankText, positiveAmountSchema } from '@/lib/core/parse';

export const PAYMENT_METHODS = ['card', 'usdc', 'interac'] as const;
export const CURRENCIES = ['CAD', 'USD'] as const;

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ pattern: HTTP_URL_PATTERN });

/** Who pays: an address the hosted page offers back to the customer, and the payments show. */
export const customerEmailInput = z.email('must be a valid e-mail address').max(254);

const checkoutItemInput = z.strictObject({
  name: nonBlankText(200),
  quantity: z.number().int().min(1).max(10_000),
  unit_amount: amountSchema,
});

export const paymentMethodsInput = z
  .array(z.enum(PAYMENT_METHODS))
  .min(1)
  .max(PAYMENT_METHODS.length)
  .refine((methods) => new Set(methods).size === methods.length, 'payment methods must not repeat')
  .meta({ uniqueItems: true });

export const createCheckoutSessionInput = z.strictObject({
  order_reference: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'use 1–64 letters, digits, ".", "_", ":" or "-"'),
  currency: z.enum(CURRENCIES),
  items: z.array(checkoutItemInput).min(1).max(100),
  shipping_amount: amountSchema.default(0),
  tax_amount: amountSchema.default(0),
  amount: positiveAmountSchema,
  return_url: httpUrl,
  cancel_url: httpUrl.nullish(),
  payment_methods: paymentMethodsInput.optional(),
  metadata: metadataInput.optional(),
  customer_email: customerEmailInput.optional(),
  capture_method: z
    .enum(['automatic', 'manual'])
    .default('automatic')
    .describe(
      'automatic: the card is charged as the customer pays. manual: it is only authorized (the payment waits in requires_capture) until captured or canceled, 7 days at most; cards only (with `payment_methods` naming another method, or an account without cards, `400 parameter_invalid`).',
    ),
});

/** The parsed body; the service's own callers (payment links, tests) may leave capture_method out: automatic. */
export type CreateCheckoutSessionInput = Omit<z.output<typeof createCheckoutSessionInput>, 'capture_method'> &
  Partial<Pick<z.output<typeof createCheckoutSessionInput>, 'capture_method'>>;

export const listCheckoutSessionsQuery = listQuerySchema({
  order_reference: z.string().max(64).optional(),
  status: z.enum(['open', 'complete', 'expired']).optional(),
  metadata: metadataQuery.optional(),
});
