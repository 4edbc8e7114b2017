import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { approveRefundRequest, declineRefundRequest } from '@/lib/refunds/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { apiClient, createTestMerchant, eventually, sessionBody, type ApiResponse } from '../helpers';
import { contextOf } from '@/test/context';

// Every transition of a refund request reaches the merchant as exactly one event, delivered as a signed webhook
// and listed by GET /v1/events, its data.object the refund request after the change with the payment's
// metadata (payment_metadata): a platform learns every outcome, and finds its order, without polling.

type Event = { id: string; type: string; data: { object: Record<string, unknown> } };

const PAYMENT_METADATA = { order_id: 'ord_1001', cart: 'cart_9' };
const REFUND_TYPES = [
  'refund_request.created',
  'refund_request.approved',
  'refund_request.declined',
  'refund_request.canceled',
  'refund.completed',
  'refund.failed',
];

const receivers: TestReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

function ok(res: ApiResponse, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

async function merchantWithEndpoint(policy: 'automatic' | 'manual') {
  const merchant = await createTestMerchant({ policy });
  const api = apiClient(merchant.key);
  const receiver = await startTestReceiver();
  receivers.push(receiver);
  const endpoint = ok(await api.post('/v1/webhook-endpoints', { url: receiver.url, events: REFUND_TYPES }), 201);
  return { ...merchant, api, receiver, secret: endpoint.secret as string };
}

async function paidPayment(api: ReturnType<typeof apiClient>, card = '4242424242424242') {
  const session = ok(await api.post('/v1/checkout-sessions', sessionBody({ metadata: PAYMENT_METADATA })), 201);
  const paid = ok(
    await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: card,
    }),
  );
  return paid.id as string;
}

const refundOf = async (api: ReturnType<typeof apiClient>, paymentId: string, amount = 500) =>
  ok(await api.post('/v1/refund-requests', { payment_id: paymentId, amount, metadata: { rma: 'R-7' } }), 201)
    .id as string;

/**
 * The merchant's events about one refund request from GET /v1/events, oldest first; events of one change
 * (approved on the spot and completed, by the test helper) share their created_at: those in life-cycle order.
 */
async function listedAbout(api: ReturnType<typeof apiClient>, refundId: string): Promise<Event[]> {
  const events = ok(await api.get('/v1/events?limit=100')).data as (Event & { created_at: string })[];
  return events
    .filter((event) => event.data.object.id === refundId)
    .sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || REFUND_TYPES.indexOf(a.type) - REFUND_TYPES.indexOf(b.type),
    );
}

describe('refund request events over HTTP', () => {
  it('delivers created, approved, completed, canceled and failed, each once, signed, with payment_metadata', async () => {
    const { api, receiver, secret } = await merchantWithEndpoint('automatic');
    const paymentId = await paidPayment(api);
    const completedId = await refundOf(api, paymentId);
    ok(await api.post(`/v1/test-helpers/refund-requests/${completedId}/complete`, {}));
    const canceledId = await refundOf(api, paymentId);
    // the worker may approve it first; then it is no longer cancelable, and a fresh one is tried
    let canceled = await api.post(`/v1/refund-requests/${canceledId}/cancel`);
    const canceledIds = [canceledId];
    while (canceled.status === 409) {
      canceledIds.push(await refundOf(api, paymentId, 100));
      canceled = await api.post(`/v1/refund-requests/${canceledIds.at(-1)}/cancel`);
    }
    const canceledRefund = ok(canceled);
    const failingId = await refundOf(api, await paidPayment(api, '4000000000005126'));
    ok(await api.post(`/v1/test-helpers/refund-requests/${failingId}/fail`, { failure_reason: 'Account closed' }));

    const completed = await listedAbout(api, completedId);
    expect(completed.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.completed',
    ]);
    expect(completed[1].data.object).toMatchObject({ status: 'processing', payment_metadata: PAYMENT_METADATA });
    expect(completed[2].data.object).toEqual({
      ...ok(await api.get(`/v1/refund-requests/${completedId}`)),
      payment_metadata: PAYMENT_METADATA,
    });
    const canceledEvents = await listedAbout(api, canceledRefund.id);
    expect(canceledEvents.map((event) => event.type)).toEqual(['refund_request.created', 'refund_request.canceled']);
    expect(canceledEvents[1].data.object).toEqual({ ...canceledRefund, payment_metadata: PAYMENT_METADATA });
    const failed = await listedAbout(api, failingId);
    expect(failed.map((event) => event.type)).toEqual([
      'refund_request.created',
      'refund_request.approved',
      'refund.failed',
    ]);
    expect(failed[2].data.object).toMatchObject({ status: 'failed', failure_reason: 'Account closed' });

    const listed = [...completed, ...canceledEvents, ...failed];
    for (const event of listed)
      expect(event.data.object).toMatchObject({ metadata: { rma: 'R-7' }, payment_metadata: PAYMENT_METADATA });
    expect(ok(await api.get('/v1/events?type=refund_request.canceled')).data.map((event: Event) => event.id)).toEqual([
      canceledEvents[1].id,
    ]);

    // every listed event arrives as its webhook, byte for byte the event, verified per Standard Webhooks
    const ids = new Set(listed.map((event) => event.id));
    const delivered = await eventually(
      async () => receiver.received.filter((webhook) => ids.has(webhook.headers['webhook-id'])),
      (webhooks) => new Set(webhooks.map((webhook) => webhook.headers['webhook-id'])).size === ids.size,
      30_000,
    );
    const verifier = new Webhook(secret);
    const payloads = delivered.map((webhook) => verifier.verify(webhook.body, webhook.headers) as Event);
    for (const event of listed) expect(payloads.find((payload) => payload.id === event.id)).toEqual(event);
  });

  it('under the manual policy, delivers a person’s approval and decline as their events', async () => {
    const { api, merchantId, receiver } = await merchantWithEndpoint('manual');
    const paymentId = await paidPayment(api);
    const [approvedId, declinedId] = [await refundOf(api, paymentId), await refundOf(api, paymentId)];
    // the dashboard's Approve and Decline (app/(dashboard)/dashboard/refunds/actions.ts) run these services
    await approveRefundRequest(contextOf(await db(), merchantId), approvedId);
    await declineRefundRequest(contextOf(await db(), merchantId), declinedId);

    const approved = await listedAbout(api, approvedId);
    expect(approved.map((event) => event.type)).toEqual(['refund_request.created', 'refund_request.approved']);
    const declined = await listedAbout(api, declinedId);
    expect(declined.map((event) => event.type)).toEqual(['refund_request.created', 'refund_request.declined']);
    expect(declined[1].data.object).toEqual({
      ...ok(await api.get(`/v1/refund-requests/${declinedId}`)),
      payment_metadata: PAYMENT_METADATA,
    });
    // the approved refund then completes on its own (refund.completed): only the requests' own events count here
    const webhooks = await eventually(
      async () =>
        receiver.received.filter((webhook) => String(JSON.parse(webhook.body).type).startsWith('refund_request.')),
      (requests) => requests.length >= 4,
      30_000,
    );
    expect(webhooks.map((webhook) => JSON.parse(webhook.body).type).sort()).toEqual(
      ['refund_request.created', 'refund_request.created', 'refund_request.approved', 'refund_request.declined'].sort(),
    );
  });

  it('makes one transition and one event when cancels, completes and the worker race for one refund', async () => {
    const { api } = await merchantWithEndpoint('automatic');
    const paymentId = await paidPayment(api);
    for (let round = 0; round < 4; round++) {
      const refundId = await refundOf(api, paymentId, 100);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2
            ? api.post(`/v1/refund-requests/${refundId}/cancel`)
            : api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`, {}),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(
        statuses.filter((status) => status === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(statuses.filter((status) => status !== 200).every((status) => status === 409)).toBe(true);
      const status = ok(await api.get(`/v1/refund-requests/${refundId}`)).status;
      // canceled while requested, or approved (by the worker or the helper) and then completed: never both
      expect((await listedAbout(api, refundId)).map((event) => event.type)).toEqual(
        status === 'canceled'
          ? ['refund_request.created', 'refund_request.canceled']
          : ['refund_request.created', 'refund_request.approved', 'refund.completed'],
      );
    }
  });
});
