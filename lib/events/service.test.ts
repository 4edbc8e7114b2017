import { beforeEach, describe, expect, it } from 'vitest';
import {
  createCheckoutSession,
  expireCheckoutSession,
  expireDueCheckoutSessions,
} from '@/lib/checkout-sessions/service';
import { db, inTransaction } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { cancelPayment, capturePayment } from '@/lib/payments/capture';
import { payCheckoutSession } from '@/lib/payments/pay';
import { setRefundPolicy } from '@/lib/merchants/service';
import {
  authorizeAutomaticRefunds,
  cancelRefundRequest,
  createRefundRequest,
  declineRefundRequest,
  finishProcessingRefunds,
} from '@/lib/refunds/service';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import { emitEvent, EVENT_TYPES } from './service';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// The outbox: every state change writes its event, and the event its deliveries, in one transaction.

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Outbox Shop', hosts: ['shop.example.com'] })).id;
});

const endpointFor = async (owner: string, events: string[]) =>
  createWebhookEndpoint(
    contextOf(await db(), owner),
    { url: 'https://hooks.example.com/in', events: events as ['*'] },
    { allowPrivateUrls: true },
  );

const deliveriesOf = async (eventId: string) =>
  (await (await db()).webhookDelivery.findMany({ where: { eventId } })).map((delivery) => delivery.endpointId).sort();

describe('emitEvent', () => {
  it('creates a delivery for each endpoint enabled and subscribed to the type at that moment', async () => {
    const client = await db();
    const all = await endpointFor(merchantId, ['*']);
    const refundsOnly = await endpointFor(merchantId, ['refund.completed', 'refund.failed']);
    const disabled = await endpointFor(merchantId, ['*']);
    await client.webhookEndpoint.update({ where: { id: disabled.id }, data: { status: 'disabled' } });
    const deleted = await endpointFor(merchantId, ['*']);
    await client.webhookEndpoint.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    const otherMerchant = (await createMerchant(client, { name: 'Other' })).id;
    await endpointFor(otherMerchant, ['*']);

    const paid = await emitEvent(client, merchantId, 'payment.succeeded', { id: 'pay_x' });
    expect(await deliveriesOf(paid)).toEqual([all.id]);
    const refunded = await emitEvent(client, merchantId, 'refund.completed', { id: 'rr_x' });
    expect(await deliveriesOf(refunded)).toEqual([all.id, refundsOnly.id].sort());

    // an endpoint made later does not receive earlier events
    const late = await endpointFor(merchantId, ['*']);
    expect(await deliveriesOf(paid)).not.toContain(late.id);
  });

  it('writes nothing when the change it describes rolls back', async () => {
    const client = await db();
    await endpointFor(merchantId, ['*']);
    let eventId = '';
    await expect(
      inTransaction(client, async (tx) => {
        eventId = await emitEvent(tx, merchantId, 'payment.succeeded', { id: 'pay_y' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await client.event.findUnique({ where: { id: eventId } })).toBeNull();
    expect(await client.webhookDelivery.count({ where: { eventId } })).toBe(0);
  });
});

describe('every state change emits its event', () => {
  const sessionInput = (ref: string) => ({
    order_reference: ref,
    currency: 'USD' as const,
    items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 5000,
    return_url: 'https://shop.example.com/thanks',
  });

  it('emits every type, each about its resource, each with a delivery to a "*" endpoint', async () => {
    const client = await db();
    const endpoint = await endpointFor(merchantId, ['*']);

    const paid = await createCheckoutSession(contextOf(client, merchantId), sessionInput('lamp-1'));
    const declined = await payCheckoutSession(contextOf(client, merchantId), paid.id, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    const { payment } = await payCheckoutSession(contextOf(client, merchantId), paid.id, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });

    const failing = await createCheckoutSession(contextOf(client, merchantId), sessionInput('lamp-2'));
    const failingPayment = (
      await payCheckoutSession(contextOf(client, merchantId), failing.id, {
        payment_method: 'card',
        card_number: '4000000000005126',
      })
    ).payment;
    const failedRefund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: failingPayment.id,
      amount: 1000,
    });
    const canceledRefund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: payment.id,
      amount: 100,
    });
    await cancelRefundRequest(contextOf(client, merchantId), canceledRefund.id);
    await authorizeAutomaticRefunds(merchantContexts(client));
    await finishProcessingRefunds(merchantContexts(client), 0);
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const declinedRefund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: payment.id,
      amount: 100,
    });
    await declineRefundRequest(contextOf(client, merchantId), declinedRefund.id);

    const expiredByApi = await createCheckoutSession(contextOf(client, merchantId), sessionInput('lamp-3'));
    await expireCheckoutSession(contextOf(client, merchantId), expiredByApi.id);
    const expiredBySweep = await createCheckoutSession(contextOf(client, merchantId), sessionInput('lamp-4'));
    await client.checkoutSession.update({
      where: { id: expiredBySweep.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expireDueCheckoutSessions(client);

    const authorize = async (ref: string) => {
      const manual = await createCheckoutSession(contextOf(client, merchantId), {
        ...sessionInput(ref),
        capture_method: 'manual',
      });
      const card = { payment_method: 'card', card_number: '4242424242424242' } as const;
      return (await payCheckoutSession(contextOf(client, merchantId), manual.id, card)).payment;
    };
    const captured = await capturePayment(contextOf(client, merchantId), (await authorize('lamp-5')).id, {});
    const canceled = await cancelPayment(contextOf(client, merchantId), (await authorize('lamp-6')).id);

    const events = await client.event.findMany({ where: { merchantId } });
    const about = (type: string) =>
      events
        .filter((event) => event.type === type)
        .map((event) => (event.data as { object: { id: string } }).object.id)
        .sort();
    expect(about('payment.failed')).toEqual([declined.payment.id]);
    expect(about('payment.succeeded')).toEqual([payment.id, failingPayment.id, captured.id].sort());
    expect(about('payment.authorized')).toEqual([captured.id, canceled.id].sort());
    expect(about('payment.canceled')).toEqual([canceled.id]);
    expect(about('checkout_session.completed')).toEqual(
      [paid.id, failing.id, captured.checkoutSessionId, canceled.checkoutSessionId].sort(),
    );
    expect(about('refund_request.created')).toEqual(
      [refund.id, failedRefund.id, canceledRefund.id, declinedRefund.id].sort(),
    );
    expect(about('refund_request.approved')).toEqual([refund.id, failedRefund.id].sort());
    expect(about('refund_request.canceled')).toEqual([canceledRefund.id]);
    expect(about('refund_request.declined')).toEqual([declinedRefund.id]);
    expect(about('refund.completed')).toEqual([refund.id]);
    expect(about('refund.failed')).toEqual([failedRefund.id]);
    expect(about('checkout_session.expired')).toEqual([expiredByApi.id, expiredBySweep.id].sort());
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(EVENT_TYPES));

    const deliveries = await client.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries.map((delivery) => delivery.eventId).sort()).toEqual(events.map((event) => event.id).sort());
    expect(deliveries.every((delivery) => delivery.status === 'pending' && delivery.attemptCount === 0)).toBe(true);
  });
});
