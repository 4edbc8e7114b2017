import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
import { PaymentMethod } from '@/lib/generated/prisma/enums';
import { currency, listOf, minorUnits, objectId, timestamp } from '@/lib/openapi/object-fields';

// The payment_link object (/docs#objects): the documented shape of serializePaymentLink.

export const paymentLinkObject = z
  .strictObject({
    id: objectId('paymentLink'),
    object: z.literal('payment_link'),
    name: z.string(),
    description: z.string().nullable(),
    amount: minorUnits('Price'),
    currency,
    payment_methods: z
      .array(z.enum(PaymentMethod))
      .nullable()
      .describe('null: every approved method that takes the currency, decided each time a customer pays'),
    after_payment_url: z.string().nullable().describe('Where the customer goes after paying; null shows a receipt'),
    active: z.boolean().describe('An inactive link says so and takes no payment'),
    url: z.url().describe('The public page to share: {APP_URL}/pay/{id}'),
    metadata: metadataField.describe(
      'Your own key/value pairs, copied to each checkout session the link makes; {} when none',
    ),
    adjustable_quantity: z
      .strictObject({
        enabled: z.boolean(),
        minimum: z.number().int().min(1).nullable(),
        maximum: z.number().int().min(1).nullable(),
      })
      .describe(
        'Whether the customer chooses how many they buy on the link’s page, and between what; minimum and maximum are null when not enabled',
      ),
    created_at: timestamp('When it was made'),
  })
  .describe('A shareable page that sells a fixed amount: each payment gets its own order and checkout session.');

export const paymentLinkList = listOf(paymentLinkObject);
