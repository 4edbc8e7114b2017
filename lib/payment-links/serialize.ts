import { metadataOf } from '@/lib/core/metadata';
import { env } from '@/lib/env';
import type { PaymentLink } from '@/lib/generated/prisma/client';

// The payment_link object of /docs#objects, and the addresses of a link's public pages.

function appUrl(): string {
  return env().APP_URL.replace(/\/$/, '');
}

/** The page customers open: {APP_URL}/pay/{id}. */
export function paymentLinkUrl(id: string): string {
  return `${appUrl()}/pay/${id}`;
}

/** Where a link without an after-payment URL sends the customer once paid (the checkout adds session_id). */
export function paymentLinkReceiptUrl(id: string): string {
  return `${appUrl()}/pay/${id}/receipt`;
}

export function serializePaymentLink(link: PaymentLink) {
  return {
    id: link.id,
    object: 'payment_link' as const,
    name: link.name,
    description: link.description,
    amount: link.amount,
    currency: link.currency,
    // null: every approved method that takes the currency, decided each time a customer pays
    payment_methods: link.paymentMethods.length > 0 ? link.paymentMethods : null,
    after_payment_url: link.afterPaymentUrl,
    active: link.active,
    url: paymentLinkUrl(link.id),
    metadata: metadataOf(link.metadata),
    adjustable_quantity: {
      enabled: link.quantityMinimum !== null,
      minimum: link.quantityMinimum,
      maximum: link.quantityMaximum,
    },
    created_at: link.createdAt.toISOString(),
  };
}

export type PaymentLinkObject = ReturnType<typeof serializePaymentLink>;
