import { z } from 'zod';
import { metadataQuery } from '@/lib/core/metadata';
import { listQuerySchema, nonBlankText, parse, type ParamSentences, positiveAmountSchema } from '@/lib/core/parse';
import { PaymentStatus } from '@/lib/generated/prisma/enums';
import { ID_PREFIXES } from '@/lib/core/ids';
import { EXPIRY_MONTH_INVALID } from './hosted-form';

export const payMethodInput = z.object({ payment_method: z.enum(['card', 'usdc', 'interac']) });

/** Card details: the hosted page sends all four; the test helper may send the number alone. */
export const payByCardInput = z.strictObject({
  payment_method: z.literal('card'),
  // the number pay.ts reads: 12 to 19 digits once spaces and dashes are dropped (then Luhn and the test cards)
  card_number: z.string().max(32).meta({
    pattern: '^(?:[\\s-]*[0-9]){12,19}[\\s-]*$',
    description:
      'The card number: 12 to 19 digits, spaces and dashes between them ignored; it must pass the Luhn check.',
  }),
  exp_month: z.number().int().min(1, 'must be a month from 1 to 12').max(12, 'must be a month from 1 to 12').optional(),
  exp_year: z.number().int().min(2000).max(2100).optional(),
  cvc: z
    .string()
    .regex(/^\d{3,4}$/, 'CVC is 3 or 4 digits')
    .optional(),
  name: nonBlankText(200).optional(),
});

export const payByUsdcInput = z.strictObject({
  payment_method: z.literal('usdc'),
});

export const payByInteracInput = z.strictObject({
  payment_method: z.literal('interac'),
  outcome: z.enum(['approve', 'decline']),
  email: z.email().max(254).optional(),
  bank: nonBlankText(100).optional(),
});

export type PayInput =
  z.output<typeof payByCardInput> | z.output<typeof payByUsdcInput> | z.output<typeof payByInteracInput>;

export const capturePaymentInput = z.strictObject({
  amount_to_capture: positiveAmountSchema
    .optional()
    .describe(
      'How much of the authorization to take, 1 … amount_capturable; all of it when omitted. The rest is released.',
    ),
});

export type CapturePaymentInput = z.output<typeof capturePaymentInput>;

export const listPaymentsQuery = listQuerySchema({
  order_reference: z.string().max(64).optional(),
  status: z.enum(PaymentStatus).optional(),
  customer_email: z.string().max(254).optional().describe('Payments of this customer: exact, whatever the case'),
  checkout_session_id: z
    .string()
    .regex(new RegExp(`^${ID_PREFIXES.checkoutSession}[0-9A-Za-z]{24}$`), 'must be a checkout session id (cs_…)')
    .optional()
    .describe('The payments (attempts, failed ones included) of this checkout session'),
  metadata: metadataQuery.optional(),
});

/** What the customer paying on the hosted page is told of a field these schemas refuse. */
const PAY_FIELD_SENTENCES: ParamSentences = {
  card_number: 'Your card number is invalid.',
  exp_month: EXPIRY_MONTH_INVALID,
  exp_year: 'Your card has expired.',
  cvc: 'The CVC is incomplete.',
  name: 'Enter the name on your card.',
  email: 'Enter a valid e-mail address.',
  bank: 'Choose your bank.',
};

/** The pay body: payment_method first, so the errors are those of the method chosen. */
export function parsePayInput(body: unknown): PayInput {
  const { payment_method } = parse(payMethodInput, body, PAY_FIELD_SENTENCES);
  if (payment_method === 'card') return parse(payByCardInput, body, PAY_FIELD_SENTENCES);
  if (payment_method === 'usdc') return parse(payByUsdcInput, body, PAY_FIELD_SENTENCES);
  return parse(payByInteracInput, body, PAY_FIELD_SENTENCES);
}
