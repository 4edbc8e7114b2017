import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
import { RefundStatus } from '@/lib/generated/prisma/enums';
import { currency, listOf, minorUnits, objectId, timestamp } from '@/lib/openapi/object-fields';

// The refund_request object (/docs#objects): the documented shape of serializeRefundRequest.

export const refundRequestObject = z
  .strictObject({
    id: objectId('refundRequest'),
    object: z.literal('refund_request'),
    payment_id: objectId('payment'),
    amount: minorUnits('Amount to refund'),
    currency,
    status: z
      .enum(RefundStatus)
      .describe('requested → processing → completed or failed; requested → declined (dashboard) or canceled (API)'),
    reason: z.string().nullable(),
    crypto_refund_destination_note: z.string().optional().describe('USDC payments only: where the refund should go'),
    failure_reason: z.string().nullable().describe('Why the provider failed the refund; null otherwise'),
    metadata: metadataField,
    payment_metadata: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "In events only (refund_request.* and refund.*): the metadata of the refund's payment, so the event alone finds its order",
      ),
    created_at: timestamp('When it was requested'),
    updated_at: timestamp('Its last change of status'),
  })
  .describe('A request to give back part or all of a succeeded payment. Active requests never exceed the payment.');

export const refundRequestList = listOf(refundRequestObject);
