import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '@/lib/core/clock';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import { createCheckoutSession, expireDueCheckoutSessions, getCheckoutSession } from './service';
import { serializeCheckoutSession } from './serialize';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

let merchantId: string;

const input = (order_reference: string) => ({
  order_reference,
  currency: 'CAD' as const,
  items: [{ name: 'Tea', quantity: 3, unit_amount: 400 }],
  shipping_amount: 0,
  tax_amount: 0,
  amount: 1200,
  return_url: 'https://shop.example.com/thanks',
});

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Tea Shop', hosts: ['shop.example.com'] })).id;
});
afterEach(() => resetClock());

describe('session expiry', () => {
  it('reads as expired after 30 minutes, before any sweep', async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, merchantId), input('tea-1'));
    advanceClock(29 * 60_000);
    expect(serializeCheckoutSession(session, contextOf(client, merchantId).now).status).toBe('open');
    advanceClock(60_000);
    expect(serializeCheckoutSession(session, contextOf(client, merchantId).now).status).toBe('expired');
  });

  it('is persisted by the sweep, with one checkout_session.expired event', async () => {
    const client = await db();
    const due = await createCheckoutSession(contextOf(client, merchantId), input('tea-2'));
    const fresh = await createCheckoutSession(contextOf(client, merchantId), input('tea-3'));
    await client.checkoutSession.update({ where: { id: due.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await expireDueCheckoutSessions(client)).toBe(1);
    expect(await expireDueCheckoutSessions(client)).toBe(0);
    expect((await getCheckoutSession(contextOf(client, merchantId), due.id))!.status).toBe('expired');
    expect((await getCheckoutSession(contextOf(client, merchantId), fresh.id))!.status).toBe('open');
    const events = await client.event.findMany({ where: { type: 'checkout_session.expired' } });
    expect(events).toHaveLength(1);
    expect((events[0].data as { object: { id: string; status: string } }).object).toMatchObject({
      id: due.id,
      status: 'expired',
    });
  });

  it('never expires a session that was paid', async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, merchantId), input('tea-4'));
    await payCheckoutSession(merchantContexts(client), session.id, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    await client.checkoutSession.update({
      where: { id: session.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await expireDueCheckoutSessions(client)).toBe(0);
    expect((await getCheckoutSession(contextOf(client, merchantId), session.id))!.status).toBe('complete');
  });
});

describe('paying writes its events in the same transaction', () => {
  it('emits payment.succeeded and checkout_session.completed once', async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, merchantId), input('tea-5'));
    const { payment } = await payCheckoutSession(merchantContexts(client), session.id, {
      payment_method: 'interac',
      outcome: 'approve',
      email: 'a@b.co',
    });
    const types = (await client.event.findMany({ where: { merchantId }, orderBy: { createdAt: 'asc' } })).map(
      (e) => e.type,
    );
    expect(types).toEqual(['payment.succeeded', 'checkout_session.completed']);
    expect(payment.status).toBe('succeeded');
  });

  it('emits payment.failed for a decline and nothing else', async () => {
    const client = await db();
    const session = await createCheckoutSession(contextOf(client, merchantId), input('tea-6'));
    await payCheckoutSession(merchantContexts(client), session.id, { payment_method: 'interac', outcome: 'decline' });
    const types = (await client.event.findMany({ where: { merchantId } })).map((e) => e.type);
    expect(types).toEqual(['payment.failed']);
  });
});
