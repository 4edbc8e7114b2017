import { beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { payCheckoutSession } from './pay';
import { searchPayments } from './dashboard';
import { contextOf } from '@/test/context';

// The Payments list is one row per checkout session: its payment (the one that succeeded, else its latest
// attempt), with how many attempts there were; the declined tries stay on the payment's page and in the API.

let merchantId: string;

async function session(reference: string) {
  return createCheckoutSession(contextOf(await db(), merchantId), {
    order_reference: reference,
    currency: 'USD',
    items: [{ name: 'Thing', quantity: 1, unit_amount: 4_000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 4_000,
    return_url: 'https://shop.example.com/thanks',
  });
}

async function attempt(sessionId: string, card: string) {
  return (
    await payCheckoutSession(contextOf(await db(), merchantId), sessionId, {
      payment_method: 'card',
      card_number: card,
    })
  ).payment;
}

const DECLINED = '4000000000000002';
const PAID = '4242424242424242';
const rows: Record<string, { id: string }> = {};

beforeAll(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Attempts Shop', hosts: ['shop.example.com'] })).id;
  const paidLate = await session('paid-late');
  rows.firstDecline = await attempt(paidLate.id, DECLINED);
  await attempt(paidLate.id, DECLINED);
  rows.paid = await attempt(paidLate.id, PAID);
  const neverPaid = await session('never-paid');
  await attempt(neverPaid.id, DECLINED);
  rows.lastDecline = await attempt(neverPaid.id, DECLINED);
  rows.once = await attempt((await session('paid-once')).id, PAID);
});

describe('the Payments list', () => {
  it("shows each session's payment once, with its number of attempts", async () => {
    const { total, rows: listed } = await searchPayments(contextOf(await db(), merchantId), { page: 1 });
    expect(total).toBe(3);
    expect(listed.map((row) => [row.id, row.attempts])).toEqual([
      [rows.once.id, 1],
      [rows.lastDecline.id, 2],
      [rows.paid.id, 3],
    ]);
  });

  it('filters those rows: failed means a session whose tries all failed', async () => {
    const failed = await searchPayments(contextOf(await db(), merchantId), { status: 'failed', page: 1 });
    expect(failed.rows.map((row) => row.id)).toEqual([rows.lastDecline.id]);
    const succeeded = await searchPayments(contextOf(await db(), merchantId), { status: 'succeeded', page: 1 });
    expect(succeeded.rows.map((row) => row.id)).toEqual([rows.once.id, rows.paid.id]);
  });

  it('still finds a declined try by its id, and a session by its reference', async () => {
    const byId = await searchPayments(contextOf(await db(), merchantId), { q: rows.firstDecline.id, page: 1 });
    expect(byId.rows.map((row) => row.id)).toEqual([rows.firstDecline.id]);
    const byReference = await searchPayments(contextOf(await db(), merchantId), { q: 'paid-late', page: 1 });
    expect(byReference.rows.map((row) => row.id)).toEqual([rows.paid.id]);
  });
});
