import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
import { CaptureMethod, CheckoutSessionStatus, PaymentMethod } from '@/lib/generated/prisma/enums';
import { currency, listOf, minorUnits, objectId, timestamp } from '@/lib/openapi/object-fields';

// The checkout_session object as the API shows it (/docs#objects): the documented shape of
// serializeCheckoutSession, held to it by lib/openapi/objects.test.ts.

export const checkoutSessionObject = z
  .strictObject({
    id: objectId('checkoutSession'),
    object: z.literal('checkout_session'),
    environment: z.literal('sandbox'),
    status: z
      .enum(CheckoutSessionStatus)
      .describe('open → complete (paid) or expired (30 minutes passed, or expired by the API)'),
    payment_status: z.enum(['unpaid', 'paid']),
    url: z.url().describe('The hosted checkout page: send the customer here'),
    order_id: objectId('order'),
    order_reference: z.string().describe("The merchant's reference of the order"),
    currency,
    amount: minorUnits('Total: items + shipping + tax'),
    items: z.array(
      z.strictObject({
        name: z.string(),
        quantity: z.number().int().min(1),
        unit_amount: minorUnits('Price of one'),
      }),
    ),
    shipping_amount: minorUnits('Shipping'),
    tax_amount: minorUnits('Tax'),
    payment_methods: z.array(z.enum(PaymentMethod)).describe('The methods offered to the customer'),
    capture_method: z
      .enum(CaptureMethod)
      .describe('automatic: a card is charged as it pays; manual: its payment is authorized, to capture later'),
    return_url: z.string().describe('Where the customer goes after paying, with session_id={id} added'),
    cancel_url: z.string().nullable().describe('The "back to the shop" link of the hosted page'),
    payment_id: objectId('payment').nullable().describe('null until paid'),
    metadata: metadataField,
    customer_email: z
      .string()
      .nullable()
      .describe('Who pays, as given when the session was made; the hosted page offers it. null when none'),
    expires_at: timestamp('created_at + 30 minutes'),
    created_at: timestamp('When it was made'),
  })
  .describe('A hosted checkout for one order. Only one session of an order can ever be paid.');

export const checkoutSessionList = listOf(checkoutSessionObject);
