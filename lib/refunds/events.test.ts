import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { EVENT_OBJECTS } from '@/lib/events/objects';
import { serializeEvent } from '@/lib/events/serialize';
import type { EventType } from '@/lib/events/types';
import type { RefundRequest } from '@/lib/generated/prisma/client';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { paidPayment as paidLamp } from '@/lib/payments/paid-payment.fixture';
import { serializeRefundRequest } from './serialize';
import {
  approveRefundRequest,
  authorizeAutomaticRefunds,
  cancelRefundRequest,
  createRefundRequest,
  declineRefundRequest,
  finishProcessingRefunds,
  finishRefundNow,
} from './service';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// Every transition of a refund request writes exactly one event, whose data.object is the refund request
// after the change with its payment's metadata: an integration learns every outcome, and finds its order,
// from the events alone.

const PAYMENT_METADATA = { order_id: 'ord_42', cart: 'c-7' };

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Refund Events Shop', hosts: ['shop.example.com'] })).id;
});

const paidPayment = (cardNumber = '4242424242424242') =>
  paidLamp(merchantId, { payment_method: 'card', card_number: cardNumber }, { metadata: PAYMENT_METADATA });

const refundOf = async (cardNumber?: string) =>
  createRefundRequest(contextOf(await db(), merchantId), {
    payment_id: (await paidPayment(cardNumber)).id,
    amount: 1500,
    metadata: { rma: 'R-1' },
  });

/** The refund's events, oldest first: their types and objects. */
async function eventsAbout(refundId: string) {
  const events = await (
    await db()
  ).event.findMany({
    where: { merchantId, data: { path: ['object', 'id'], equals: refundId } },
    orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }],
  });
  // each as the document describes its type (lib/events/objects.ts)
  for (const event of events) EVENT_OBJECTS[event.type as EventType].parse(serializeEvent(event));
  return events.map((event) => ({ type: event.type, object: (event.data as { object: unknown }).object }));
}

/** The event a transition should have written: the refund as it is now, with its payment's metadata. */
async function expectedEvent(type: string, refundId: string) {
  const refund: RefundRequest = await (await db()).refundRequest.findUniqueOrThrow({ where: { id: refundId } });
  return { type, object: { ...serializeRefundRequest(refund), payment_metadata: PAYMENT_METADATA } };
}

describe('an event for every refund request transition', () => {
  it('created: refund_request.created with the refund and both metadata', async () => {
    const refund = await refundOf();
    expect(await eventsAbout(refund.id)).toEqual([await expectedEvent('refund_request.created', refund.id)]);
    expect((await eventsAbout(refund.id))[0].object).toMatchObject({
      metadata: { rma: 'R-1' },
      payment_metadata: PAYMENT_METADATA,
    });
  });

  it('approved by the automatic policy: refund_request.approved, once, then refund.completed', async () => {
    const client = await db();
    const refund = await refundOf();
    // (the job authorizes every merchant's requested refunds: other tests' too)
    await Promise.all([
      authorizeAutomaticRefunds(merchantContexts(client)),
      authorizeAutomaticRefunds(merchantContexts(client)),
    ]);
    await authorizeAutomaticRefunds(merchantContexts(client));
    const [, approved, ...more] = await eventsAbout(refund.id);
    expect(more).toEqual([]);
    expect(approved).toEqual(await expectedEvent('refund_request.approved', refund.id));
    expect(approved.object).toMatchObject({ status: 'processing' });

    await finishProcessingRefunds(merchantContexts(client), 0);
    const events = await eventsAbout(refund.id);
    expect(events.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.completed',
    ]);
    expect(events[2]).toEqual(await expectedEvent('refund.completed', refund.id));
  });

  it('approved by a person under the manual policy: refund_request.approved', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const refund = await refundOf();
    await approveRefundRequest(contextOf(client, merchantId), refund.id);
    const events = await eventsAbout(refund.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual(await expectedEvent('refund_request.approved', refund.id));
  });

  it('declined: refund_request.declined', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const refund = await refundOf();
    await declineRefundRequest(contextOf(client, merchantId), refund.id);
    const events = await eventsAbout(refund.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual(await expectedEvent('refund_request.declined', refund.id));
    expect(events[1].object).toMatchObject({ status: 'declined' });
  });

  it('canceled: refund_request.canceled; a refused cancel writes none', async () => {
    const client = await db();
    const refund = await refundOf();
    await cancelRefundRequest(contextOf(client, merchantId), refund.id);
    await expect(cancelRefundRequest(contextOf(client, merchantId), refund.id)).rejects.toMatchObject({
      code: 'refund_not_cancelable',
    });
    const events = await eventsAbout(refund.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual(await expectedEvent('refund_request.canceled', refund.id));
    expect(events[1].object).toMatchObject({ status: 'canceled' });
  });

  it('failed by the provider: refund.failed', async () => {
    const client = await db();
    const refund = await refundOf('4000000000005126');
    await authorizeAutomaticRefunds(merchantContexts(client));
    await finishProcessingRefunds(merchantContexts(client), 0);
    const events = await eventsAbout(refund.id);
    expect(events.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.failed',
    ]);
    expect(events[2]).toEqual(await expectedEvent('refund.failed', refund.id));
  });

  it('finished by the test helper while still requested: approved on the spot, then completed, each once', async () => {
    const client = await db();
    const refund = await refundOf();
    await finishRefundNow(contextOf(client, merchantId), refund.id, { completed: true });
    const finished = await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } });
    const events = await eventsAbout(refund.id);
    expect(events.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.completed',
    ]);
    expect(events[1].object).toEqual({
      ...serializeRefundRequest({ ...finished, status: 'processing' }),
      payment_metadata: PAYMENT_METADATA,
    });
    expect(events[2]).toEqual(await expectedEvent('refund.completed', refund.id));
    await authorizeAutomaticRefunds(merchantContexts(client));
    expect(await eventsAbout(refund.id)).toHaveLength(3);
  });

  it('failed by the test helper after approval: refund.failed only', async () => {
    const client = await db();
    const refund = await refundOf();
    await authorizeAutomaticRefunds(merchantContexts(client));
    await finishRefundNow(contextOf(client, merchantId), refund.id, { failureReason: 'Card account closed' });
    const events = await eventsAbout(refund.id);
    expect(events.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.failed',
    ]);
    expect(events[2]).toEqual(await expectedEvent('refund.failed', refund.id));
  });
});

describe('approving, declining and canceling one refund at once', () => {
  it('makes exactly one transition and exactly one event, every time', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const payment = await paidPayment();
    for (let round = 0; round < 6; round++) {
      const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 100 });
      const outcomes = await Promise.allSettled([
        approveRefundRequest(contextOf(client, merchantId), refund.id),
        declineRefundRequest(contextOf(client, merchantId), refund.id),
        cancelRefundRequest(contextOf(client, merchantId), refund.id),
        approveRefundRequest(contextOf(client, merchantId), refund.id),
        cancelRefundRequest(contextOf(client, merchantId), refund.id),
        declineRefundRequest(contextOf(client, merchantId), refund.id),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'refund_not_cancelable' });

      const status = (await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).status;
      const type = { processing: 'refund_request.approved', declined: 'refund_request.declined' }[status as string];
      const events = await eventsAbout(refund.id);
      expect(events.map((event) => event.type)).toEqual(['refund_request.created', type ?? 'refund_request.canceled']);
      expect(events[1].object).toMatchObject({ status });
    }
    // declined and canceled refunds gave their amounts back; approved ones still hold theirs
    const approved = await client.refundRequest.count({ where: { paymentId: payment.id, status: 'processing' } });
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountReserved).toBe(approved * 100);
  });
});
