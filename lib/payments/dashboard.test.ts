import { beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { cancelPayment, capturePayment } from './capture';
import { payCheckoutSession } from './pay';
import { getPaymentDetail, PAYMENT_STATUSES, paymentListStatus, searchPayments } from './dashboard';
import { contextOf } from '@/test/context';

// The payments list's status filter agrees with the badge each row shows: refunded and partially refunded
// are succeeded payments told apart by amount_refunded against amount, compared in the query itself.

let merchantId: string;
const ids: Record<string, string> = {};

async function newSession(captureMethod: 'automatic' | 'manual' = 'automatic') {
  return createCheckoutSession(contextOf(await db(), merchantId), {
    capture_method: captureMethod,
    order_reference: `o-${Math.random().toString(36).slice(2)}`,
    currency: 'USD',
    items: [{ name: 'Thing', quantity: 1, unit_amount: 4_000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 4_000,
    return_url: 'https://shop.example.com/thanks',
  });
}

async function pay(sessionId: string, card = '4242424242424242') {
  return (
    await payCheckoutSession(contextOf(await db(), merchantId), sessionId, {
      payment_method: 'card',
      card_number: card,
    })
  ).payment;
}

/** As the provider leaves a payment once refunds of `refunded` have completed. */
async function refunded(paymentId: string, amount: number) {
  await (
    await db()
  ).payment.update({ where: { id: paymentId }, data: { amountReserved: amount, amountRefunded: amount } });
}

beforeAll(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Badge Shop', hosts: ['shop.example.com'] })).id;
  ids.kept = (await pay((await newSession()).id)).id;
  ids.part = (await pay((await newSession()).id)).id;
  ids.whole = (await pay((await newSession()).id)).id;
  const retried = await newSession();
  ids.failed = (await pay(retried.id, '4000000000000002')).id;
  ids.paidAfter = (await pay(retried.id)).id;
  ids.neverPaid = (await pay((await newSession()).id, '4000000000000002')).id;
  ids.uncaptured = (await pay((await newSession('manual')).id)).id;
  ids.canceled = (await pay((await newSession('manual')).id)).id;
  ids.capturedInPart = (await pay((await newSession('manual')).id)).id;
  await cancelPayment(contextOf(await db(), merchantId), ids.canceled);
  await capturePayment(contextOf(await db(), merchantId), ids.capturedInPart, { amount_to_capture: 1_000 });
  ids.capturedRefunded = (await pay((await newSession('manual')).id)).id;
  await capturePayment(contextOf(await db(), merchantId), ids.capturedRefunded, { amount_to_capture: 1_000 });
  await refunded(ids.capturedRefunded, 1_000);
  await refunded(ids.part, 1_250);
  await refunded(ids.whole, 4_000);
  // reserved but not yet completed: still "succeeded" until the provider finishes it
  await (await db()).payment.update({ where: { id: ids.kept }, data: { amountReserved: 500 } });
});

describe('payment statuses in the dashboard', () => {
  it('filters each status to the payments whose badge says it', async () => {
    const expected: Record<(typeof PAYMENT_STATUSES)[number], string[]> = {
      // a capture of part of an authorization keeps what it took: nothing of it went back
      succeeded: [ids.kept, ids.paidAfter, ids.capturedInPart],
      partially_refunded: [ids.part],
      // all that was captured went back, though less than the authorization's amount
      refunded: [ids.whole, ids.capturedRefunded],
      requires_capture: [ids.uncaptured],
      canceled: [ids.canceled],
      // a session is one row, its payment: the declined try of a session paid later is not "failed"
      failed: [ids.neverPaid],
    };
    for (const status of Object.keys(expected) as (typeof PAYMENT_STATUSES)[number][]) {
      expect(PAYMENT_STATUSES, 'the list offers it as a filter').toContain(status);
      const { total, rows } = await searchPayments(contextOf(await db(), merchantId), { status, page: 1 });
      expect(rows.map((row) => row.id).sort(), status).toEqual([...expected[status]].sort());
      expect(total).toBe(expected[status].length);
      for (const row of rows) expect(paymentListStatus(row)).toBe(status);
    }
  });

  it('tells a failed attempt’s story only, and names the attempt that paid the session', async () => {
    const failed = await getPaymentDetail(contextOf(await db(), merchantId), ids.failed);
    const titles = failed!.timeline.map((entry) => entry.title);
    expect(titles).toContain('Payment attempt failed: Card declined');
    expect(titles).not.toContain('Payment succeeded');
    expect(titles).not.toContain('checkout_session.completed');
    expect(failed!.otherAttempts.map((attempt) => attempt.id)).toEqual([ids.paidAfter]);

    const paid = await getPaymentDetail(contextOf(await db(), merchantId), ids.paidAfter);
    const paidTitles = paid!.timeline.map((entry) => entry.title);
    expect(paidTitles).toContain('Payment succeeded');
    expect(paidTitles).toContain('checkout_session.completed');
    expect(paidTitles.some((title) => title.startsWith('Payment attempt failed'))).toBe(false);
  });

  it('puts each event after the change it reports, though the database stamped it a moment before', async () => {
    const client = await db();
    const detail = await getPaymentDetail(contextOf(client, merchantId), ids.paidAfter);
    const titles = detail!.timeline.map((entry) => entry.title);
    expect(titles.indexOf('payment.succeeded')).toBeGreaterThan(titles.indexOf('Payment succeeded'));
    expect(titles.indexOf('checkout_session.completed')).toBeGreaterThan(titles.indexOf('Payment succeeded'));
    const event = detail!.timeline.find((entry) => entry.title === 'payment.succeeded')!;
    // shown with its own time, whatever its place
    expect(event.at.getTime()).toBe(
      (await client.event.findUniqueOrThrow({ where: { id: event.detail! } })).createdAt.getTime(),
    );
  });

  it('tells an authorization’s end after it: captured in part, or canceled, each before its event', async () => {
    const captured = await getPaymentDetail(contextOf(await db(), merchantId), ids.capturedInPart);
    const titles = captured!.timeline.map((entry) => entry.title);
    const capture = titles.indexOf('Captured US$10.00 of US$40.00; US$30.00 released');
    expect(capture).toBeGreaterThan(titles.indexOf('Payment authorized'));
    expect(titles.indexOf('payment.succeeded')).toBeGreaterThan(capture);

    const canceled = await getPaymentDetail(contextOf(await db(), merchantId), ids.canceled);
    const canceledTitles = canceled!.timeline.map((entry) => entry.title);
    const release = canceledTitles.indexOf('Authorization canceled: the hold of US$40.00 was released');
    expect(release).toBeGreaterThan(canceledTitles.indexOf('Payment authorized'));
    expect(canceledTitles.indexOf('payment.canceled')).toBeGreaterThan(release);
  });
});
