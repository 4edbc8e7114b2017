import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
import { CaptureMethod, PaymentMethod, PaymentStatus } from '@/lib/generated/prisma/enums';
import { currency, listOf, minorUnits, objectId, timestamp } from '@/lib/openapi/object-fields';
import type { CardBrand } from './cards';

// The payment object (/docs#objects): the documented shape of serializePayment.

const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const satisfies readonly CardBrand[];

const cardDetails = z.strictObject({
  card: z.strictObject({
    brand: z.enum(CARD_BRANDS),
    last4: z.string().regex(/^\d{4}$/),
    exp_month: z.number().int().min(1).max(12).nullable(),
    exp_year: z.number().int().nullable(),
  }),
});

const usdcDetails = z.strictObject({
  usdc: z.strictObject({
    network: z.literal('ethereum'),
    payer_address: z
      .string()
      .regex(/^0x[0-9a-f]{40}$/)
      .describe('The sandbox wallet that sent the transfer'),
    transaction_hash: z.string().regex(/^0x[0-9a-f]{64}$/),
  }),
});

const interacDetails = z.strictObject({
  interac: z.strictObject({
    email_masked: z.string().nullable().describe('The payer’s e-mail with its local part masked'),
    bank: z.string().nullable(),
  }),
});

export const paymentObject = z
  .strictObject({
    id: objectId('payment'),
    object: z.literal('payment'),
    status: z
      .enum(PaymentStatus)
      .describe(
        'succeeded or failed; a card on a manual-capture session waits in requires_capture until captured (succeeded) or canceled',
      ),
    amount: minorUnits('Amount paid'),
    currency,
    payment_method: z.enum(PaymentMethod),
    payment_method_details: z
      .union([cardDetails, usdcDetails, interacDetails])
      .describe('One key, named after payment_method'),
    failure_code: z
      .enum(['card_declined', 'insufficient_funds', 'interac_declined'])
      .nullable()
      .describe('Why a failed payment failed; null when it succeeded'),
    checkout_session_id: objectId('checkoutSession'),
    order_id: objectId('order'),
    order_reference: z.string(),
    capture_method: z.enum(CaptureMethod).describe("Its checkout session's: automatic, or manual (authorized first)"),
    amount_capturable: minorUnits('What a capture may still take: the amount while requires_capture, else 0'),
    amount_captured: minorUnits(
      'What was taken: the amount of a succeeded automatic payment, the captured part of a manual one, else 0',
    ),
    amount_refunded: minorUnits('Sum of completed refunds'),
    amount_refundable: minorUnits(
      'Amount captured minus active refunds (requested, processing, completed); 0 unless succeeded',
    ),
    metadata: metadataField.describe("Its checkout session's metadata, copied when the payment was made"),
    customer_email: z
      .string()
      .nullable()
      .describe("Who paid: the e-mail the customer gave on the hosted page, else the session's; null when none"),
    canceled_at: timestamp('When its authorization was canceled; null unless canceled').nullable(),
    cancellation_reason: z
      .enum(['requested_by_merchant', 'expired'])
      .nullable()
      .describe('Why its authorization was canceled: by the merchant, or not captured within 7 days'),
    created_at: timestamp('When the customer paid, or tried to'),
  })
  .describe('One attempt to pay a checkout session. A succeeded payment is the proof that an order is paid.');

export const paymentList = listOf(paymentObject);
