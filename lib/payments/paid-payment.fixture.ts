import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { payCheckoutSession } from '@/lib/payments/pay';
import type { PayInput } from '@/lib/payments/schemas';
import { contextOf } from '@/test/context';

// For services tests: a US$50.00 lamp, paid through the same services the hosted page uses. The order
// reference is fresh each time, so one merchant can have as many as a test needs.

const CARD: PayInput = { payment_method: 'card', card_number: '4242424242424242' };

export async function paidPayment(
  merchantId: string,
  input: PayInput = CARD,
  session: { capture_method?: 'manual'; metadata?: Record<string, string> } = {},
) {
  const client = await db();
  const opened = await createCheckoutSession(contextOf(client, merchantId), {
    ...session,
    order_reference: `o-${Math.random().toString(36).slice(2)}`,
    currency: 'USD',
    items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 5000,
    return_url: 'https://shop.example.com/thanks',
  });
  return (await payCheckoutSession(contextOf(client, merchantId), opened.id, input)).payment;
}

/** The same lamp on a manual-capture session: an authorization (requires_capture) of US$50.00. */
export async function authorizedPayment(merchantId: string) {
  return paidPayment(merchantId, CARD, { capture_method: 'manual' });
}
