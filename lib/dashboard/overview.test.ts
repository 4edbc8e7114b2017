import { beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import {
  approveRefundRequest,
  createRefundRequest,
  declineRefundRequest,
  finishProcessingRefunds,
} from '@/lib/refunds/service';
import { addDays, dayInZone } from '@/lib/core/time-zone';
import { getOverview, OVERVIEW_DAYS } from './overview';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// Home's figures: a row per day (UTC unless a zone is asked for) for 30 days, one currency at a time, failed attempts
// kept apart, refunds counted once completed (not while they wait for approval), nothing from before the window.

const TODAY = new Date();
const DAY = 86_400_000;
let merchantId: string;

async function pay(
  currency: 'USD' | 'CAD',
  amount: number,
  daysAgo: number,
  card = '4242424242424242',
  owner = merchantId,
) {
  const client = await db();
  const session = await createCheckoutSession(contextOf(client, owner), {
    order_reference: `o-${Math.random().toString(36).slice(2)}`,
    currency,
    items: [{ name: 'Thing', quantity: 1, unit_amount: amount }],
    shipping_amount: 0,
    tax_amount: 0,
    amount,
    return_url: 'https://shop.example.com/thanks',
  });
  const { payment } = await payCheckoutSession(contextOf(client, owner), session.id, {
    payment_method: 'card',
    card_number: card,
  });
  const at = new Date(TODAY.getTime() - daysAgo * DAY);
  await client.payment.update({ where: { id: payment.id }, data: { createdAt: at } });
  return { ...payment, at };
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

beforeAll(async () => {
  const client = await db();
  merchantId = (await createMerchant(client, { name: 'Figures Shop', hosts: ['shop.example.com'] })).id;
  // a person declines one of its refunds
  await setRefundPolicy(contextOf(client, merchantId), 'manual');
  await pay('USD', 10_000, 0);
  const refunded = await pay('USD', 5_000, 2);
  await pay('USD', 7_000, 2, '4000000000000002'); // declined: a failed attempt, no volume
  await pay('USD', 99_000, 45); // before the window
  await pay('CAD', 2_000, 1);
  const completed = await createRefundRequest(contextOf(client, merchantId), {
    payment_id: refunded.id,
    amount: 1_000,
  });
  await approveRefundRequest(contextOf(client, merchantId), completed.id);
  while ((await finishProcessingRefunds(merchantContexts(client), 0)) > 0);
  const waiting = await createRefundRequest(contextOf(client, merchantId), { payment_id: refunded.id, amount: 2_000 });
  const dropped = await createRefundRequest(contextOf(client, merchantId), { payment_id: refunded.id, amount: 500 });
  await declineRefundRequest(contextOf(client, merchantId), dropped.id);
  expect((await client.refundRequest.findUniqueOrThrow({ where: { id: completed.id } })).status).toBe('completed');
  expect(waiting.status).toBe('requested');
});

describe('getOverview', () => {
  it('shows the busiest currency by default, with 30 days ending today', async () => {
    const overview = await getOverview(contextOf(await db(), merchantId), { today: TODAY });
    expect(overview.currency).toBe('USD');
    expect(overview.currencies).toEqual(['USD', 'CAD']);
    expect(overview.days).toHaveLength(OVERVIEW_DAYS);
    expect(overview.days.at(-1)!.day).toBe(dayOf(TODAY));
    expect(overview.days[0].day).toBe(dayOf(new Date(TODAY.getTime() - (OVERVIEW_DAYS - 1) * DAY)));
    expect(overview.totals).toEqual({
      grossVolume: 15_000,
      succeededCount: 2,
      failedCount: 1,
      refundedAmount: 1_000, // neither the declined refund nor the one waiting for approval is counted
      refundCount: 1,
      refundRate: 1_000 / 15_000,
    });
  });

  it('puts each payment on its UTC day', async () => {
    const { days } = await getOverview(contextOf(await db(), merchantId), { today: TODAY });
    const twoDaysAgo = days.find((row) => row.day === dayOf(new Date(TODAY.getTime() - 2 * DAY)))!;
    expect(twoDaysAgo).toMatchObject({ grossVolume: 5_000, succeededCount: 1, failedCount: 1 });
    expect(days.at(-1)).toMatchObject({
      grossVolume: 10_000,
      succeededCount: 1,
      refundedAmount: 1_000,
      refundCount: 1,
    });
    expect(days.reduce((sum, row) => sum + row.grossVolume, 0)).toBe(15_000);
  });

  it('shows another currency on its own, never added to the first', async () => {
    const overview = await getOverview(contextOf(await db(), merchantId), { currency: 'CAD', today: TODAY });
    expect(overview.totals).toMatchObject({ grossVolume: 2_000, succeededCount: 1, refundedAmount: 0, refundRate: 0 });
    expect(overview.days.every((row) => row.currency === 'CAD')).toBe(true);
  });

  it('is all zeros for a new merchant', async () => {
    const fresh = await createMerchant(await db(), { name: 'Empty' });
    const overview = await getOverview(contextOf(await db(), fresh.id), { today: TODAY });
    expect(overview).toMatchObject({ currency: 'USD', currencies: [], totals: { grossVolume: 0, refundRate: null } });
    expect(overview.days).toHaveLength(OVERVIEW_DAYS);
  });

  it('puts each payment on its day in the merchant’s zone: 02:00 UTC is the evening before in Los Angeles', async () => {
    const client = await db();
    const westCoast = (await createMerchant(client, { name: 'West Coast Shop', hosts: ['shop.example.com'] })).id;
    const payment = await pay('USD', 4_200, 0, '4242424242424242', westCoast);
    // yesterday (UTC) at 02:00 UTC: always in the past, and on another day in Los Angeles
    const at = new Date(Date.UTC(TODAY.getUTCFullYear(), TODAY.getUTCMonth(), TODAY.getUTCDate() - 1, 2));
    await client.payment.update({ where: { id: payment.id }, data: { createdAt: at } });
    const zone = 'America/Los_Angeles';
    const localDay = dayInZone(at, zone);
    expect(localDay).toBe(addDays(dayOf(at), -1));

    const local = await getOverview(contextOf(client, westCoast), { today: TODAY, timeZone: zone });
    expect(local.days).toHaveLength(OVERVIEW_DAYS);
    expect(local.days.at(-1)!.day).toBe(dayInZone(TODAY, zone));
    expect(local.days[0].day).toBe(addDays(dayInZone(TODAY, zone), -(OVERVIEW_DAYS - 1)));
    expect(local.days.filter((row) => row.grossVolume > 0)).toEqual([
      expect.objectContaining({ day: localDay, grossVolume: 4_200, succeededCount: 1 }),
    ]);

    const utc = await getOverview(contextOf(client, westCoast), { today: TODAY });
    expect(utc.days.filter((row) => row.grossVolume > 0)).toEqual([
      expect.objectContaining({ day: dayOf(at), grossVolume: 4_200 }),
    ]);
  });

  it('starts the window when its first day starts in the zone', async () => {
    const client = await db();
    const eastern = (await createMerchant(client, { name: 'Window Shop', hosts: ['shop.example.com'] })).id;
    const zone = 'Asia/Tokyo';
    const firstDay = addDays(dayInZone(TODAY, zone), -(OVERVIEW_DAYS - 1));
    // 15:00 UTC the day before the first day is 00:00 of the first day in Tokyo; a minute earlier is outside
    const inside = await pay('USD', 1_000, 0, '4242424242424242', eastern);
    const outside = await pay('USD', 2_000, 0, '4242424242424242', eastern);
    const start = new Date(`${addDays(firstDay, -1)}T15:00:00Z`);
    await client.payment.update({ where: { id: inside.id }, data: { createdAt: start } });
    await client.payment.update({ where: { id: outside.id }, data: { createdAt: new Date(start.getTime() - 60_000) } });
    const overview = await getOverview(contextOf(client, eastern), { today: TODAY, timeZone: zone });
    expect(overview.totals.grossVolume).toBe(1_000);
    expect(overview.days[0]).toMatchObject({ day: firstDay, grossVolume: 1_000 });
  });
});
