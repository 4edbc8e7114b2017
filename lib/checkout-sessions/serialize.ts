import { metadataOf } from '@/lib/core/metadata';
import { env } from '@/lib/env';
import type { CheckoutItem, CheckoutSession } from '@/lib/generated/prisma/client';

export type CheckoutSessionWithItems = CheckoutSession & { items: CheckoutItem[] };

/** An open session past expires_at is expired by `at` (the connection's time), whether or not the sweep has persisted it yet. */
export function effectiveStatus(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, at: Date) {
  return session.status === 'open' && session.expiresAt <= at ? 'expired' : session.status;
}

export function checkoutUrl(id: string): string {
  return `${env().APP_URL.replace(/\/$/, '')}/checkout/${id}`;
}

/** The session's API body, its status as of `at`, the connection's time (lib/core/context.ts). */
export function serializeCheckoutSession(session: CheckoutSessionWithItems, at: Date) {
  const status = effectiveStatus(session, at);
  return {
    id: session.id,
    object: 'checkout_session' as const,
    environment: 'sandbox' as const,
    status,
    payment_status: status === 'complete' ? ('paid' as const) : ('unpaid' as const),
    url: checkoutUrl(session.id),
    order_id: session.orderId,
    order_reference: session.orderReference,
    currency: session.currency,
    amount: session.amount,
    items: [...session.items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({ name: item.name, quantity: item.quantity, unit_amount: item.unitAmount })),
    shipping_amount: session.shippingAmount,
    tax_amount: session.taxAmount,
    payment_methods: session.paymentMethods,
    capture_method: session.captureMethod,
    return_url: session.returnUrl,
    cancel_url: session.cancelUrl,
    payment_id: session.paymentId,
    metadata: metadataOf(session.metadata),
    customer_email: session.customerEmail,
    expires_at: session.expiresAt.toISOString(),
    created_at: session.createdAt.toISOString(),
  };
}

export type CheckoutSessionObject = ReturnType<typeof serializeCheckoutSession>;
