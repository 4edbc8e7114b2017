import { beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import { createRefundRequest, declineRefundRequest } from '@/lib/refunds/service';
import { getOverview, OVERVIEW_DAYS } from './overview';

// Home's figures: a row per UTC day for 30 days, one currency at a time, failed attempts and inactive
// refunds kept apart, nothing from before the window.

const TODAY = new Date();
const DAY = 86_400_000;
let merchantId: string;

async function pay(currency: 'USD' | 'CAD', amount: number, daysAgo: number, card = '4242424242424242') {
  const client = await db();
  const session = await createCheckoutSession(client, merchantId, {
    order_reference: `o-${Math.random().toString(36).slice(2)}`,
    currency,
    items: [{ name: 'Thing', quantity: 1, unit_amount: amount }],
    shipping_amount: 0,
    tax_amount: 0,
    amount,
    return_url: 'https://shop.example.com/thanks',
  });
  const { payment } = await payCheckoutSession(client, merchantId, session.id, { payment_method: 'card', card_number: card });
  const at = new Date(TODAY.getTime() - daysAgo * DAY);
  await client.payment.update({ where: { id: payment.id }, data: { createdAt: at } });
  return { ...payment, at };
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

beforeAll(async () => {
  const client = await db();
  merchantId = (await createMerchant(client, { name: 'Figures Shop', hosts: ['shop.example.com'] })).id;
  // a person declines one of its refunds
  await setRefundPolicy(client, merchantId, 'manual');
  await pay('USD', 10_000, 0);
  const refunded = await pay('USD', 5_000, 2);
  await pay('USD', 7_000, 2, '4000000000000002'); // declined: a failed attempt, no volume
  await pay('USD', 99_000, 45); // before the window
  await pay('CAD', 2_000, 1);
  const kept = await createRefundRequest(client, merchantId, { payment_id: refunded.id, amount: 1_000 });
  const dropped = await createRefundRequest(client, merchantId, { payment_id: refunded.id, amount: 500 });
  await declineRefundRequest(client, merchantId, dropped.id);
  expect(kept.status).toBe('requested');
});

describe('getOverview', () => {
  it('shows the busiest currency by default, with 30 days ending today', async () => {
    const overview = await getOverview(await db(), merchantId, { today: TODAY });
    expect(overview.currency).toBe('USD');
    expect(overview.currencies).toEqual(['USD', 'CAD']);
    expect(overview.days).toHaveLength(OVERVIEW_DAYS);
    expect(overview.days.at(-1)!.day).toBe(dayOf(TODAY));
    expect(overview.days[0].day).toBe(dayOf(new Date(TODAY.getTime() - (OVERVIEW_DAYS - 1) * DAY)));
    expect(overview.totals).toEqual({
      grossVolume: 15_000,
      succeededCount: 2,
      failedCount: 1,
      refundedAmount: 1_000, // the declined refund is not counted
      refundCount: 1,
      refundRate: 1_000 / 15_000,
    });
  });

  it('puts each payment on its UTC day', async () => {
    const { days } = await getOverview(await db(), merchantId, { today: TODAY });
    const twoDaysAgo = days.find((row) => row.day === dayOf(new Date(TODAY.getTime() - 2 * DAY)))!;
    expect(twoDaysAgo).toMatchObject({ grossVolume: 5_000, succeededCount: 1, failedCount: 1 });
    expect(days.at(-1)).toMatchObject({ grossVolume: 10_000, succeededCount: 1, refundedAmount: 1_000, refundCount: 1 });
    expect(days.reduce((sum, row) => sum + row.grossVolume, 0)).toBe(15_000);
  });

  it('shows another currency on its own, never added to the first', async () => {
    const overview = await getOverview(await db(), merchantId, { currency: 'CAD', today: TODAY });
    expect(overview.totals).toMatchObject({ grossVolume: 2_000, succeededCount: 1, refundedAmount: 0, refundRate: 0 });
    expect(overview.days.every((row) => row.currency === 'CAD')).toBe(true);
  });

  it('is all zeros for a new merchant', async () => {
    const fresh = await createMerchant(await db(), { name: 'Empty' });
    const overview = await getOverview(await db(), fresh.id, { today: TODAY });
    expect(overview).toMatchObject({ currency: 'USD', currencies: [], totals: { grossVolume: 0, refundRate: null } });
    expect(overview.days).toHaveLength(OVERVIEW_DAYS);
  });
});
