import { beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { getOverview } from '@/lib/dashboard/overview';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { cancelPayment, capturePayment } from '@/lib/payments/capture';
import { payCheckoutSession } from '@/lib/payments/pay';
import {
  approveRefundRequest,
  cancelRefundRequest,
  createRefundRequest,
  declineRefundRequest,
  finishProcessingRefunds,
} from '@/lib/refunds/service';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// Home's figures come from payment_figures, which triggers keep in the statements that write payments and
// refunds. After a random mix of payments (succeeded, declined, whose refunds fail), refunds (declined,
// canceled, completed, failed, refused for want of money), concurrent ones among them, and payments moved
// to other days, the figures must equal a recount of the rows themselves, and Home must show what the old
// query over the payments showed, in time zones an hour, half an hour and a quarter hour off UTC.

const CARDS = ['4242424242424242', '4242424242424242', '4000000000000002', '4000000000005126'];
const DAY = 86_400_000;
let merchantId: string;
let seed = 17;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];

async function newSession(
  currency: 'USD' | 'CAD',
  amount: number,
  captureMethod: 'automatic' | 'manual' = 'automatic',
) {
  return createCheckoutSession(contextOf(await db(), merchantId), {
    capture_method: captureMethod,
    order_reference: `f-${Math.random().toString(36).slice(2)}`,
    currency,
    items: [{ name: 'Thing', quantity: 1, unit_amount: amount }],
    shipping_amount: 0,
    tax_amount: 0,
    amount,
    return_url: 'https://shop.example.com/thanks',
  });
}

const pay = async (sessionId: string, card = pick(CARDS)) =>
  payCheckoutSession(contextOf(await db(), merchantId), sessionId, { payment_method: 'card', card_number: card });

const settle = <T>(work: Array<Promise<T>>) => Promise.allSettled(work);

beforeAll(async () => {
  const client = await db();
  merchantId = (await createMerchant(client, { name: 'Figures Shop', hosts: ['shop.example.com'] })).id;
  await setRefundPolicy(contextOf(client, merchantId), 'manual');

  // payments, four at a time, and two customers paying the same session at once
  const paid: Array<{ id: string; amount: number }> = [];
  for (let round = 0; round < 6; round++) {
    const sessions = await Promise.all(
      [0, 1, 2].map(() => newSession(pick(['USD', 'CAD']), 500 + Math.floor(random() * 5000))),
    );
    const results = await settle([...sessions.map((session) => pay(session.id)), pay(sessions[0].id, CARDS[0])]);
    for (const result of results) {
      if (result.status !== 'fulfilled') continue;
      const { payment } = result.value;
      if (payment.status === 'succeeded') paid.push({ id: payment.id, amount: payment.amount });
    }
  }

  // authorizations: most captured in part (some while a cancel races the capture), the others left waiting;
  // Home counts only what was captured
  for (let i = 0; i < 6; i++) {
    const { payment } = await pay((await newSession('USD', 1000 + i * 100, 'manual')).id, CARDS[0]);
    if (i % 3 === 2) continue;
    const capture = capturePayment(contextOf(client, merchantId), payment.id, { amount_to_capture: 500 + i });
    const results = await settle([
      capture,
      ...(i % 2 ? [cancelPayment(contextOf(client, merchantId), payment.id)] : []),
    ]);
    if (results[0].status === 'fulfilled') paid.push({ id: payment.id, amount: 500 + i });
  }
  expect(await client.payment.count({ where: { merchantId, status: 'requires_capture' } })).toBe(2);

  // some payments move to other days (as overview.test.ts backdates them): the trigger moves their share
  for (const { id } of paid.slice(0, 4)) {
    await client.payment.update({ where: { id }, data: { createdAt: new Date(Date.now() - random() * 20 * DAY) } });
  }

  // refunds, three at a time on the same payment, more than it can give back
  const requested: string[] = [];
  for (const payment of paid) {
    const results = await settle(
      [0, 1, 2].map(async () =>
        createRefundRequest(contextOf(await db(), merchantId), {
          payment_id: payment.id,
          amount: Math.ceil(payment.amount / 2),
        }),
      ),
    );
    for (const result of results) if (result.status === 'fulfilled') requested.push(result.value.id);
  }
  // each one declined, canceled, or approved (then completed or failed, by its card), some twice at once
  await settle(
    requested.flatMap((id) => {
      const action = pick([declineRefundRequest, cancelRefundRequest, approveRefundRequest, approveRefundRequest]);
      return random() < 0.3
        ? [action(contextOf(client, merchantId), id), declineRefundRequest(contextOf(client, merchantId), id)]
        : [action(contextOf(client, merchantId), id)];
    }),
  );
  while ((await finishProcessingRefunds(merchantContexts(client), 0)) > 0);
}, 120_000);

describe('payment_figures', () => {
  it('equals a recount of the payments and refunds', async () => {
    const client = await db();
    const figures = await client.$queryRaw<unknown[]>`
      SELECT period_start, currency::text, sum(gross)::bigint AS gross, sum(succeeded)::bigint AS succeeded,
             sum(failed)::bigint AS failed, sum(refunded)::bigint AS refunded, sum(refunds)::bigint AS refunds
      FROM payment_figures WHERE merchant_id = ${merchantId}
      GROUP BY 1, 2
      HAVING sum(gross) <> 0 OR sum(succeeded) <> 0 OR sum(failed) <> 0 OR sum(refunded) <> 0 OR sum(refunds) <> 0
      ORDER BY 1, 2`;
    const recount = await client.$queryRaw<unknown[]>`
      SELECT period_start, currency, sum(gross)::bigint AS gross, sum(succeeded)::bigint AS succeeded,
             sum(failed)::bigint AS failed, sum(refunded)::bigint AS refunded, sum(refunds)::bigint AS refunds
      FROM (
        SELECT date_bin('15 minutes', created_at, TIMESTAMPTZ '2000-01-01Z') AS period_start, currency::text,
               CASE WHEN status = 'succeeded' THEN amount_captured ELSE 0 END AS gross,
               (status = 'succeeded')::int AS succeeded, (status = 'failed')::int AS failed, 0 AS refunded, 0 AS refunds
        FROM payments WHERE merchant_id = ${merchantId}
        UNION ALL
        SELECT date_bin('15 minutes', created_at, TIMESTAMPTZ '2000-01-01Z'), currency::text, 0, 0, 0, amount, 1
        FROM refund_requests
        WHERE merchant_id = ${merchantId} AND status = 'completed'
      ) AS rows
      GROUP BY 1, 2 ORDER BY 1, 2`;
    expect(recount.length).toBeGreaterThan(3);
    expect(figures).toEqual(recount);
    // the mix did what it says
    const statuses = await client.refundRequest.groupBy({ by: ['status'], where: { merchantId }, _count: true });
    expect(statuses.map((row) => row.status).sort()).toEqual(expect.arrayContaining(['completed', 'declined']));
    expect(await client.payment.count({ where: { merchantId, status: 'failed' } })).toBeGreaterThan(0);
  });

  it.each(['UTC', 'America/Toronto', 'Asia/Kolkata', 'Asia/Kathmandu'])(
    'gives Home the figures of the payments themselves in %s',
    async (timeZone) => {
      const client = await db();
      for (const currency of ['USD', 'CAD'] as const) {
        const overview = await getOverview(contextOf(client, merchantId), { timeZone, currency });
        const recount = await recountDays(timeZone, overview.days[0].day, overview.days.at(-1)!.day, currency);
        expect(overview.days.map(({ currency: _, ...day }) => day)).toEqual(recount);
      }
    },
  );
});

/** The figures as Home computed them before payment_figures: from every payment and refund of the window. */
async function recountDays(timeZone: string, firstDay: string, lastDay: string, currency: string) {
  const client = await db();
  const rows = await client.$queryRaw<
    Array<{ day: Date; gross: bigint; succeeded: bigint; failed: bigint; refunded: bigint; refunds: bigint }>
  >`
    WITH days AS (SELECT d::date AS day FROM generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') AS d),
    paid AS (
      SELECT (created_at AT TIME ZONE ${timeZone})::date AS day,
             coalesce(sum(amount_captured) FILTER (WHERE status = 'succeeded'), 0) AS gross,
             count(*) FILTER (WHERE status = 'succeeded') AS succeeded, count(*) FILTER (WHERE status = 'failed') AS failed
      FROM payments WHERE merchant_id = ${merchantId} AND currency::text = ${currency} GROUP BY 1
    ),
    refunded AS (
      SELECT (created_at AT TIME ZONE ${timeZone})::date AS day, sum(amount) AS refunded, count(*) AS refunds
      FROM refund_requests
      WHERE merchant_id = ${merchantId} AND currency::text = ${currency} AND status = 'completed'
      GROUP BY 1
    )
    SELECT days.day, coalesce(paid.gross, 0)::bigint AS gross, coalesce(paid.succeeded, 0)::bigint AS succeeded,
           coalesce(paid.failed, 0)::bigint AS failed, coalesce(refunded.refunded, 0)::bigint AS refunded,
           coalesce(refunded.refunds, 0)::bigint AS refunds
    FROM days LEFT JOIN paid USING (day) LEFT JOIN refunded USING (day) ORDER BY days.day`;
  return rows.map((row) => ({
    day: row.day.toISOString().slice(0, 10),
    grossVolume: Number(row.gross),
    succeededCount: Number(row.succeeded),
    failedCount: Number(row.failed),
    refundedAmount: Number(row.refunded),
    refundCount: Number(row.refunds),
  }));
}
