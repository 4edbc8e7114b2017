import { describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { DeclineLimitReached, payCheckoutSession } from './pay';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

const DECLINED_CARD = { payment_method: 'card', card_number: '4000000000000002' } as const;

async function openSession() {
  const client = await db();
  const merchant = await createMerchant(client, { name: 'Card Shop', hosts: ['shop.example.com'] });
  return createCheckoutSession(contextOf(client, merchant.id), {
    order_reference: `order-${Date.now()}-${Math.random()}`,
    currency: 'USD',
    items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 1200,
    return_url: 'https://shop.example.com/thanks',
  });
}

describe('declined attempts on the hosted page', () => {
  it('stop at the limit however fast they come; the session still takes USDC', async () => {
    const client = await db();
    const session = await openSession();
    const attempts = await Promise.allSettled(
      Array.from({ length: 15 }, () =>
        payCheckoutSession(merchantContexts(client), session.id, DECLINED_CARD, { declineLimit: 10 }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(10);
    const refused = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
    expect(refused).toHaveLength(5);
    for (const attempt of refused) expect(attempt.reason).toBeInstanceOf(DeclineLimitReached);
    // each decline is a failed payment and an event; a refusal is neither
    expect(await client.payment.count({ where: { checkoutSessionId: session.id, status: 'failed' } })).toBe(10);
    expect(await client.event.count({ where: { merchantId: session.merchantId, type: 'payment.failed' } })).toBe(10);

    const { payment } = await payCheckoutSession(
      merchantContexts(client),
      session.id,
      { payment_method: 'usdc' },
      { declineLimit: 10 },
    );
    expect(payment.status).toBe('succeeded');
  });

  it('do not limit the merchant’s own test helper', async () => {
    const client = await db();
    const session = await openSession();
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const { payment } = await payCheckoutSession(contextOf(client, session.merchantId), session.id, DECLINED_CARD);
      expect(payment.status).toBe('failed');
    }
  });
});
