import { metadataOf } from '@/lib/core/metadata';
import type { Prisma, RefundRequest } from '@/lib/generated/prisma/client';

export function serializeRefundRequest(refund: RefundRequest) {
  return {
    id: refund.id,
    object: 'refund_request' as const,
    payment_id: refund.paymentId,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    ...(refund.cryptoRefundDestinationNote !== null
      ? { crypto_refund_destination_note: refund.cryptoRefundDestinationNote }
      : {}),
    failure_reason: refund.failureReason,
    metadata: metadataOf(refund.metadata),
    created_at: refund.createdAt.toISOString(),
    updated_at: refund.updatedAt.toISOString(),
  };
}

export type RefundRequestObject = ReturnType<typeof serializeRefundRequest>;

/** data.object of a refund's events: the refund request, with its payment's metadata to find the order by. */
export function refundEventObject(refund: RefundRequest, paymentMetadata: Prisma.JsonValue) {
  return { ...serializeRefundRequest(refund), payment_metadata: metadataOf(paymentMetadata) };
}
