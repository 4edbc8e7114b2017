import { afterAll, describe, expect, it } from 'vitest';
import { db, inTransaction } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';

// One merchant's webhook endpoint must not slow another merchant down, over HTTP against the running server's
// worker (test/setup/next-server.ts: REFUND_PROCESSING_DELAY_MS=300). The slow merchant's deliveries are
// shuffled (faults.shuffle), so its claimed batch is sent one at a time, each up to the send's 10 s timeout.

type Client = ReturnType<typeof apiClient>;
const REFUND_PROCESSING_DELAY_MS = 300;
const receivers: TestReceiver[] = [];

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(...args: Parameters<typeof startTestReceiver>) {
  const started = await startTestReceiver(...args);
  receivers.push(started);
  return started;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A merchant whose shuffled endpoint at `url` has `count` payment.failed deliveries due together. */
async function merchantWithQueue(url: string, count: number) {
  const merchant = await createTestMerchant();
  const client = apiClient(merchant.key);
  const endpoint = await client.post('/v1/webhook-endpoints', {
    url,
    events: ['payment.failed'],
    faults: { shuffle: true },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  // in one transaction, so that the worker finds them due together and claims them as one batch
  await inTransaction(await db(), async (tx) => {
    for (let n = 0; n < count; n += 1)
      await emitEvent(tx, merchant.merchantId, 'payment.failed', { id: `pay_queued_${n}`, object: 'payment' });
  });
  return { client, endpointId: endpoint.body.id as string };
}

async function paidPayment(client: Client): Promise<{ id: string; paidAt: number }> {
  const session = await client.post('/v1/checkout-sessions', sessionBody());
  const paidAt = Date.now();
  const paid = await client.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { id: paid.body.id, paidAt };
}

describe('a merchant whose endpoint hangs', () => {
  it("holds up neither another merchant's webhooks nor its refunds", async () => {
    // accepts the connection, reads the request, never answers
    const hanging = await receiver(() => ({ status: 200, hang: true }));
    const slow = await merchantWithQueue(hanging.url, 20);
    await hanging.waitFor(1, 10_000);

    const other = apiClient((await createTestMerchant()).key);
    const hook = await receiver();
    expect((await other.post('/v1/webhook-endpoints', { url: hook.url, events: ['payment.succeeded'] })).status).toBe(
      201,
    );
    const payment = await paidPayment(other);
    const [webhook] = await hook.waitFor(1, 30_000);
    const webhookMs = webhook.receivedAt - payment.paidAt;

    const refundAskedAt = Date.now();
    const refund = await other.post('/v1/refund-requests', { payment_id: payment.id, amount: 1000 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const finished = await eventually(
      () => other.get(`/v1/refund-requests/${refund.body.id}`),
      (answer) => answer.body.status === 'completed',
      30_000,
    );
    const refundMs = Date.now() - refundAskedAt;
    console.log(
      `beside a hanging endpoint with 20 deliveries queued: another merchant's webhook in ${webhookMs} ms, ` +
        `its refund completed in ${refundMs} ms (provider delay ${REFUND_PROCESSING_DELAY_MS} ms)`,
    );
    expect(finished.body.status).toBe('completed');
    expect(webhookMs).toBeLessThan(3_000);
    expect(refundMs).toBeLessThan(REFUND_PROCESSING_DELAY_MS + 2_000);

    // deleted, its queued deliveries are not sent (the one in flight ends with the receiver's sockets)
    expect((await slow.client.request('DELETE', `/v1/webhook-endpoints/${slow.endpointId}`)).status).toBe(200);
  });
});

describe("a slow endpoint's claimed batch", () => {
  // answers after 150 ms: a shuffled batch of 20 takes 3 s to send
  const answer = () => ({ status: 200, delayMs: 150 });

  it('is not sent on once the endpoint is deleted', async () => {
    const slowHook = await receiver(answer);
    const slow = await merchantWithQueue(slowHook.url, 20);
    await slowHook.waitFor(2, 10_000);
    expect((await slow.client.request('DELETE', `/v1/webhook-endpoints/${slow.endpointId}`)).status).toBe(200);
    const atDeletion = slowHook.received.length;
    await sleep(1_500);
    // at most the one in flight when the endpoint was deleted
    expect(slowHook.received.length - atDeletion).toBeLessThanOrEqual(1);
  });

  it('waits while the endpoint is disabled, and is sent, each delivery once, when it is enabled again', async () => {
    const slowHook = await receiver(answer);
    const slow = await merchantWithQueue(slowHook.url, 20);
    await slowHook.waitFor(2, 10_000);
    const update = (status: string) => slow.client.post(`/v1/webhook-endpoints/${slow.endpointId}`, { status });
    expect((await update('disabled')).status).toBe(200);
    const atDisabling = slowHook.received.length;
    await sleep(1_500);
    expect(slowHook.received.length - atDisabling).toBeLessThanOrEqual(1);
    expect(slowHook.received.length).toBeLessThan(20);

    expect((await update('enabled')).status).toBe(200);
    await slowHook.waitFor(20, 15_000);
    await sleep(500);
    const ids = slowHook.received.map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });
});
