import { metadataOf } from '@/lib/api/metadata';
import type { Payment } from '@/lib/generated/prisma/client';

export function amountRefundable(payment: Pick<Payment, 'status' | 'amount' | 'amountReserved'>): number {
  return payment.status === 'succeeded' ? payment.amount - payment.amountReserved : 0;
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
    amount_refunded: payment.amountRefunded,
    amount_refundable: amountRefundable(payment),
    metadata: metadataOf(payment.metadata),
    customer_email: payment.customerEmail,
    created_at: payment.createdAt.toISOString(),
  };
}

export type PaymentObject = ReturnType<typeof serializePayment>;
