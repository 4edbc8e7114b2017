import { metadataOf } from '@/lib/core/metadata';
import type { Payment } from '@/lib/generated/prisma/client';
import type { CancellationReason } from './repository';

/** What refunds may still take: of what was captured, less the active refunds; 0 unless it succeeded. */
export function amountRefundable(payment: Pick<Payment, 'status' | 'amountCaptured' | 'amountReserved'>): number {
  return payment.status === 'succeeded' ? payment.amountCaptured - payment.amountReserved : 0;
}

/** What a capture may still take: all of an authorization that stands, else nothing. */
export function amountCapturable(payment: Pick<Payment, 'status' | 'amount'>): number {
  return payment.status === 'requires_capture' ? payment.amount : 0;
}

export function serializePayment(payment: Payment) {
  return {
    id: payment.id,
    object: 'payment' as const,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    payment_method: payment.paymentMethod,
    payment_method_details: payment.methodDetails,
    failure_code: payment.failureCode,
    checkout_session_id: payment.checkoutSessionId,
    order_id: payment.orderId,
    order_reference: payment.orderReference,
    capture_method: payment.captureMethod,
    amount_capturable: amountCapturable(payment),
    amount_captured: payment.amountCaptured,
    amount_refunded: payment.amountRefunded,
    amount_refundable: amountRefundable(payment),
    metadata: metadataOf(payment.metadata),
    customer_email: payment.customerEmail,
    canceled_at: payment.canceledAt?.toISOString() ?? null,
    cancellation_reason: payment.cancellationReason as CancellationReason | null,
    created_at: payment.createdAt.toISOString(),
  };
}

export type PaymentObject = ReturnType<typeof serializePayment>;
