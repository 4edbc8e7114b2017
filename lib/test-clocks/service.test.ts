import { beforeEach, describe, expect, it } from 'vitest';
import { createCheckoutSession, expireDueCheckoutSessions } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { startPaymentLinkCheckout } from '@/lib/payment-links/checkout';
import { createPaymentLink } from '@/lib/payment-links/service';
import { paidPayment } from '@/lib/payments/paid-payment.fixture';
import { payCheckoutSession } from '@/lib/payments/pay';
import { searchCheckoutSessions } from '@/lib/checkout-sessions/dashboard';
import { authorizeAutomaticRefunds, createRefundRequest, finishProcessingRefunds } from '@/lib/refunds/service';
import { claimDueDeliveries } from '@/lib/webhooks/repository';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import { env } from '@/lib/env';
import { advanceTestClock, getTestClock, previewTestClockAdvance } from './service';
import { contextOf, contextOnClock } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// Test clocks (lib/test-clocks/service.ts): a connection's clock only moves forward, advances add up, and the worker's queues compare each
// row with its own merchant's time, so one merchant's clock moves none of another's rows.

const HOUR = 3_600;
let mover: string;
let bystander: string;

beforeEach(async () => {
  const client = await db();
  mover = (await createMerchant(client, { name: 'Mover', hosts: ['shop.example.com'] })).id;
  bystander = (await createMerchant(client, { name: 'Bystander', hosts: ['shop.example.com'] })).id;
});

const sessionInput = () => ({
  order_reference: `o-${Math.random().toString(36).slice(2)}`,
  currency: 'USD' as const,
  items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
  shipping_amount: 0,
  tax_amount: 0,
  amount: 5000,
  return_url: 'https://shop.example.com/thanks',
});

describe('advanceTestClock', () => {
  it('adds concurrent advances up exactly, and the clock reads the wall clock plus the offset', async () => {
    const client = await db();
    await Promise.all(Array.from({ length: 10 }, (_, i) => advanceTestClock(contextOf(client, mover), i + 1)));
    const clock = await getTestClock(contextOf(client, mover));
    expect(clock.offsetSeconds).toBe(55);
    expect(Math.abs(clock.now.getTime() - (Date.now() + 55_000))).toBeLessThan(2_000);
    expect((await getTestClock(contextOf(client, bystander))).offsetSeconds).toBe(0);
  });

  it('dates what the connection makes on its clock', async () => {
    const client = await db();
    await advanceTestClock(contextOf(client, mover), 2 * HOUR);
    const session = await createCheckoutSession(await contextOnClock(client, mover), sessionInput());
    expect(session.createdAt.getTime() - Date.now()).toBeGreaterThan(2 * HOUR * 1000 - 5_000);
  });
});

describe('pages without an API key', () => {
  it("start a payment link's session at the merchant's time, so it is open for its 30 minutes", async () => {
    const client = await db();
    const link = await createPaymentLink(contextOf(client, mover), {
      name: 'Mug',
      amount: 1200,
      currency: 'USD',
      active: true,
    });
    await advanceTestClock(contextOf(client, mover), 2 * HOUR);
    const session = await startPaymentLinkCheckout(merchantContexts(client), link.id, null);
    expect(session.createdAt.getTime() - Date.now()).toBeGreaterThan(2 * HOUR * 1000 - 5_000);
    const { rows } = await searchCheckoutSessions(await contextOnClock(client, mover), { page: 1 });
    expect(rows.find((row) => row.id === session.id)?.status).toBe('open');
  });

  it("refuse to pay, as the hosted page does, a session expired in the merchant's time", async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, mover), sessionInput());
    await advanceTestClock(contextOf(client, mover), 31 * 60);
    await expect(
      payCheckoutSession(merchantContexts(client), session.id, {
        payment_method: 'card',
        card_number: '4242424242424242',
      }),
    ).rejects.toMatchObject({ code: 'checkout_session_not_open' });
  });

  it("show the dashboard's sessions expired once the merchant's clock passed their expiry", async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, mover), sessionInput());
    const statusOf = async () =>
      (await searchCheckoutSessions(await contextOnClock(client, mover), { page: 1 })).rows.find(
        (row) => row.id === session.id,
      )?.status;
    expect(await statusOf()).toBe('open');
    await advanceTestClock(contextOf(client, mover), 31 * 60);
    expect(await statusOf()).toBe('expired');
  });
});

describe("the worker's queues, each row on its merchant's time", () => {
  it('sweeps the sessions expired in their own connection time, with the event dated in it', async () => {
    const client = await db();
    const [mine, theirs] = await Promise.all([
      createCheckoutSession(contextOf(client, mover), sessionInput()),
      createCheckoutSession(contextOf(client, bystander), sessionInput()),
    ]);
    await expireDueCheckoutSessions(client);
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe('open');

    await advanceTestClock(contextOf(client, mover), 31 * 60);
    await expireDueCheckoutSessions(client);
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe('expired');
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('open');
    const [event] = await client.event.findMany({ where: { merchantId: mover, type: 'checkout_session.expired' } });
    expect(event.createdAt.getTime() - Date.now()).toBeGreaterThan(31 * 60_000 - 5_000);
  });

  it('finishes a processing refund once the provider delay has passed in its connection time', async () => {
    const client = await db();
    const delayMs = HOUR * 1000;
    const refunds = [];
    for (const merchantId of [mover, bystander]) {
      const payment = await paidPayment(merchantId);
      refunds.push(await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 100 }));
    }
    await authorizeAutomaticRefunds(merchantContexts(client));
    expect(await finishProcessingRefunds(merchantContexts(client), delayMs)).toBe(0);
    await advanceTestClock(contextOf(client, mover), HOUR);
    expect(await finishProcessingRefunds(merchantContexts(client), delayMs)).toBe(1);
    const [mine, theirs] = await Promise.all(
      refunds.map((refund) => client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })),
    );
    expect(mine.status).toBe('completed');
    // finished at the connection's time, an hour ahead of the wall clock
    expect(mine.updatedAt.getTime() - Date.now()).toBeGreaterThan(HOUR * 1000 - 5_000);
    expect(theirs.status).toBe('processing');
  });

  it('claims a delivery when its next attempt is due in its endpoint merchant time', async () => {
    const client = await db();
    const endpoints = [];
    for (const merchantId of [mover, bystander]) {
      endpoints.push(
        await createWebhookEndpoint(
          contextOf(client, merchantId),
          { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
          { allowPrivateUrls: true },
        ),
      );
      await paidPayment(merchantId);
    }
    // both retried 5 minutes from now (wall clock), as after a failed second attempt
    await client.webhookDelivery.updateMany({
      where: { endpointId: { in: endpoints.map((endpoint) => endpoint.id) } },
      data: { nextAttemptAt: new Date(Date.now() + 5 * 60_000) },
    });
    expect(await claimDueDeliveries(client, 100, 60)).toEqual([]);
    await advanceTestClock(contextOf(client, mover), 5 * 60);
    const claimed = await claimDueDeliveries(client, 100, 60);
    const mine = await client.webhookDelivery.findMany({ where: { endpointId: endpoints[0].id } });
    expect(claimed.map((claim) => claim.id).sort()).toEqual(mine.map((delivery) => delivery.id).sort());
    expect(mine.length).toBeGreaterThan(0);
    // leased in connection time: the lease runs out 60 s after the connection's now
    for (const delivery of mine)
      expect(delivery.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(5 * 60_000 + 50_000);
  });

  it("holds a delayed endpoint's first attempts for delay_seconds of its merchant's time, which an advance passes", async () => {
    const client = await db();
    const endpoint = await createWebhookEndpoint(
      contextOf(client, mover),
      { url: 'http://127.0.0.1:9/hooks', events: ['*'], faults: { delay_seconds: 600 } },
      { allowPrivateUrls: true },
    );
    await paidPayment(mover);
    const held = await client.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(held.length).toBeGreaterThan(0);
    expect(await claimDueDeliveries(client, 100, 60)).toEqual([]);
    await advanceTestClock(contextOf(client, mover), 540);
    expect(await claimDueDeliveries(client, 100, 60)).toEqual([]);
    await advanceTestClock(contextOf(client, mover), 61);
    const claimed = await claimDueDeliveries(client, 100, 60);
    expect(claimed.map((claim) => claim.id).sort()).toEqual(held.map((delivery) => delivery.id).sort());
  });
});

describe('previewTestClockAdvance', () => {
  it('counts what an advance brings due on this clock only, by the queues’ rules, and moves nothing', async () => {
    const client = await db();
    const delaySeconds = env().REFUND_PROCESSING_DELAY_MS / 1000;
    for (const merchantId of [mover, bystander]) {
      await createCheckoutSession(contextOf(client, merchantId), sessionInput());
      const endpoint = await createWebhookEndpoint(
        contextOf(client, merchantId),
        { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
        { allowPrivateUrls: true },
      );
      const payment = await paidPayment(merchantId);
      await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 100 });
      await authorizeAutomaticRefunds(merchantContexts(client));
      // retried 5 minutes from now, as after a failed attempt
      await client.webhookDelivery.updateMany({
        where: { endpointId: endpoint.id },
        data: { nextAttemptAt: new Date(Date.now() + 5 * 60_000) },
      });
    }
    const deliveries = await client.webhookDelivery.count({ where: { endpoint: { merchantId: mover } } });
    expect(deliveries).toBeGreaterThan(0);

    expect(await previewTestClockAdvance(contextOf(client, mover), 1)).toEqual({
      sessions: 0,
      refunds: 0,
      deliveries: 0,
    });
    expect(await previewTestClockAdvance(contextOf(client, mover), delaySeconds + 60)).toEqual({
      sessions: 0,
      refunds: 1,
      deliveries: 0,
    });
    expect(await previewTestClockAdvance(contextOf(client, mover), 10 * 60)).toEqual({
      sessions: 0,
      refunds: 1,
      deliveries,
    });
    // the paid session is complete; the other one expires 30 minutes after it was made
    expect(await previewTestClockAdvance(contextOf(client, mover), HOUR)).toEqual({
      sessions: 1,
      refunds: 1,
      deliveries,
    });

    // after an advance the preview starts from the clock's new time: what is already due is not "brought due"
    await advanceTestClock(contextOf(client, mover), 10 * 60);
    expect((await previewTestClockAdvance(contextOf(client, mover), 60)).deliveries).toBe(0);
    expect((await getTestClock(contextOf(client, bystander))).offsetSeconds).toBe(0);
  });
});
