import { PrismaPg } from '@prisma/adapter-pg';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '@/lib/core/clock';
import { db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { createMerchant } from '@/lib/merchants/service';
import { claimDueWebhooks, deliverDueWebhooks, newSendPool, type DeliveryOptions } from './deliver';
import { MAX_ATTEMPTS } from './retry-schedule';
import { RESPONSE_EXCERPT_BYTES } from './send';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listAttempts,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from './service';
import { startTestReceiver, type Answer, type TestReceiver } from '@/test/support/webhook-receiver';
import { contextOf } from '@/test/context';

// The delivery job against a real HTTP receiver on 127.0.0.1 (so private URLs are allowed here, except
// where a test checks that they are refused at delivery).

const allowLocal: DeliveryOptions = { allowPrivateUrls: true, retryScale: 0.0001 };

let merchantId: string;
let receivers: TestReceiver[] = [];

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Hook Shop' })).id;
});
afterEach(async () => {
  resetClock();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
  // the file shares one database: leave no delivery for the next test's worker passes to pick up
  await (await db()).webhookEndpoint.deleteMany();
});

async function receiver(answer?: (nth: number) => Answer) {
  const started = await startTestReceiver(answer);
  receivers.push(started);
  return started;
}

async function endpointAt(url: string, events: string[] = ['*']) {
  return createWebhookEndpoint(
    contextOf(await db(), merchantId),
    { url, events: events as ['*'] },
    { allowPrivateUrls: true },
  );
}

async function emit(
  type: 'payment.succeeded' | 'refund.completed' = 'payment.succeeded',
  object: object = { id: 'pay_1', amount: 3750 },
) {
  return emitEvent(await db(), merchantId, type, object);
}

/** Runs the job until nothing is due and nothing is waiting for a retry, or until `until` holds. */
async function drain(options: DeliveryOptions = allowLocal, until?: () => Promise<boolean>) {
  const client = await db();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    await deliverDueWebhooks(client, options);
    if (until ? await until() : (await client.webhookDelivery.count({ where: { status: 'pending' } })) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('deliveries did not settle');
}

async function deliveryOf(eventId: string) {
  return (await db()).webhookDelivery.findFirstOrThrow({
    where: { eventId },
    include: { attempts: { orderBy: { attempt: 'asc' } } },
  });
}

describe('delivery', () => {
  it('POSTs the event, signed so the official library verifies it, and marks it delivered', async () => {
    const hook = await receiver();
    const endpoint = await endpointAt(hook.url);
    const eventId = await emit();
    await drain();

    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request.headers['webhook-id']).toBe(eventId);
    expect(request.headers['content-type']).toBe('application/json');
    const payload = new Webhook(endpoint.secret).verify(request.body, request.headers);
    expect(payload).toMatchObject({
      id: eventId,
      object: 'event',
      type: 'payment.succeeded',
      data: { object: { id: 'pay_1', amount: 3750 } },
    });
    const event = await (await db()).event.findUniqueOrThrow({ where: { id: eventId } });
    expect(JSON.parse(request.body).created_at).toBe(event.createdAt.toISOString());

    const delivery = await deliveryOf(eventId);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 1, nextAttemptAt: null });
    expect(delivery.attempts).toMatchObject([{ attempt: 1, responseStatus: 200, error: null, responseExcerpt: 'ok' }]);
  });

  it('retries an endpoint that fails twice, delivers on the third attempt, and never sends it again', async () => {
    const hook = await receiver((nth) => (nth <= 2 ? { status: 500, body: `boom ${nth}` } : { status: 204 }));
    await endpointAt(hook.url);
    const eventId = await emit();
    await drain();

    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((request) => request.headers['webhook-id']))).toEqual(new Set([eventId]));
    const delivery = await deliveryOf(eventId);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 3, nextAttemptAt: null });
    expect(
      delivery.attempts.map((attempt) => [attempt.attempt, attempt.responseStatus, attempt.responseExcerpt]),
    ).toEqual([
      [1, 500, 'boom 1'],
      [2, 500, 'boom 2'],
      [3, 204, null],
    ]);
    expect(delivery.attempts[0].error).toBe('answered 500');
    expect(delivery.attempts.every((attempt) => attempt.durationMs >= 0 && attempt.durationMs < 10_000)).toBe(true);

    // more passes of the worker, later: nothing is sent again
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await deliverDueWebhooks(await db(), allowLocal)).toBe(0);
    expect(hook.received).toHaveLength(3);
  });

  it('waits the scaled retry schedule between attempts', async () => {
    const hook = await receiver(() => ({ status: 503 }));
    await endpointAt(hook.url);
    const eventId = await emit();
    // at scale 1 the second attempt is 5 s after the first ended: the next passes find nothing due
    await deliverDueWebhooks(await db(), { allowPrivateUrls: true, retryScale: 1 });
    const attemptEndedBy = Date.now();
    expect(await deliverDueWebhooks(await db(), { allowPrivateUrls: true, retryScale: 1 })).toBe(0);
    const delivery = await deliveryOf(eventId);
    // 5 s after the attempt began and its answer came, whatever the send and its write took on a busy machine
    const nextAttemptAt = delivery.nextAttemptAt!.getTime();
    expect(nextAttemptAt - delivery.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(4900);
    expect(nextAttemptAt - attemptEndedBy).toBeLessThanOrEqual(5100);
    expect(hook.received).toHaveLength(1);
  });

  it('gives up after the last attempt, logging each with its status, duration and the first 1 KiB of the answer', async () => {
    const longAnswer = 'é'.repeat(3000);
    const hook = await receiver(() => ({
      status: 503,
      body: longAnswer,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    }));
    await endpointAt(hook.url);
    const eventId = await emit();
    await drain({ allowPrivateUrls: true, retryScale: 0.000001 });

    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
    const delivery = await deliveryOf(eventId);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
    expect(delivery.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const attempt of delivery.attempts) {
      expect(attempt.responseStatus).toBe(503);
      expect(Buffer.byteLength(attempt.responseExcerpt!)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
      expect(attempt.responseExcerpt!.length).toBeGreaterThanOrEqual(RESPONSE_EXCERPT_BYTES / 2 - 1);
      expect(longAnswer.startsWith(attempt.responseExcerpt!)).toBe(true);
    }
    expect(await deliverDueWebhooks(await db(), allowLocal)).toBe(0);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const elsewhere = await receiver();
    const hook = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    await endpointAt(hook.url);
    const eventId = await emit();
    await deliverDueWebhooks(await db(), allowLocal);

    const delivery = await deliveryOf(eventId);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts).toMatchObject([
      { responseStatus: 307, error: 'answered 307: redirects are not followed' },
    ]);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const hook = await receiver(() => ({ status: 200, hang: true }));
    await endpointAt(hook.url);
    const eventId = await emit();
    await deliverDueWebhooks(await db(), { ...allowLocal, timeoutMs: 300 });

    const [attempt] = (await deliveryOf(eventId)).attempts;
    expect(attempt).toMatchObject({ responseStatus: null, error: 'timed out after 300 ms' });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt.durationMs).toBeLessThan(2000);
  });

  it('releases a delivery at once when the worker shuts down mid-send, and the next worker sends it', async () => {
    const hook = await receiver((nth) => (nth === 1 ? { status: 200, hang: true } : { status: 200 }));
    await endpointAt(hook.url);
    const eventId = await emit();
    const shutdown = new AbortController();
    const pass = deliverDueWebhooks(await db(), { ...allowLocal, signal: shutdown.signal });
    await hook.waitFor(1);
    shutdown.abort();
    await pass;

    const released = await deliveryOf(eventId);
    expect(released).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(released.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(released.attempts).toMatchObject([
      { attempt: 1, responseStatus: null, error: 'interrupted: the worker shut down mid-send' },
    ]);
    // a stopped worker claims nothing more
    expect(await deliverDueWebhooks(await db(), { ...allowLocal, signal: shutdown.signal })).toBe(0);

    await drain();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(hook.received).toHaveLength(2);
  });

  it('logs a refused connection as a failed attempt', async () => {
    const hook = await receiver();
    await endpointAt(hook.url);
    await hook.close();
    const eventId = await emit();
    await deliverDueWebhooks(await db(), allowLocal);
    expect((await deliveryOf(eventId)).attempts).toMatchObject([
      { responseStatus: null, error: expect.stringMatching(/^ECONNREFUSED/) },
    ]);
  });

  it('checks the URL again before sending: a private address is not contacted when private URLs are not allowed', async () => {
    const hook = await receiver();
    // made while allowed (or while its name resolved to a public address)
    await endpointAt(hook.url);
    const eventId = await emit();
    await deliverDueWebhooks(await db(), { allowPrivateUrls: false, retryScale: 0.0001 });

    expect(hook.received).toHaveLength(0);
    const delivery = await deliveryOf(eventId);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts).toMatchObject([
      {
        attempt: 1,
        responseStatus: null,
        error: expect.stringMatching(/^not sent: the URL its host 127\.0\.0\.1 is a private/),
      },
    ]);
  });
});

describe('concurrent workers', () => {
  it('never send one attempt twice: every event arrives once across five workers on two connection pools', async () => {
    const hook = await receiver(() => ({ status: 200, delayMs: 10 }));
    await endpointAt(hook.url);
    const eventIds = new Set<string>();
    for (let i = 0; i < 40; i += 1) eventIds.add(await emit('payment.succeeded', { id: `pay_${i}` }));

    // a second Prisma client: its own pool of connections, as another process would have
    const other = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) });
    try {
      const clients = [await db(), other, await db(), other, await db()];
      const claimed = await Promise.all(
        clients.map(async (client) => {
          let total = 0;
          for (;;) {
            const handled = await deliverDueWebhooks(client, { ...allowLocal, batchSize: 3 });
            if (handled === 0) return total;
            total += handled;
          }
        }),
      );
      expect(claimed.reduce((sum, count) => sum + count, 0)).toBe(40);
    } finally {
      await other.$disconnect();
    }

    expect(hook.received).toHaveLength(40);
    expect(new Set(hook.received.map((request) => request.headers['webhook-id']))).toEqual(eventIds);
    const client = await db();
    expect(await client.webhookAttempt.count()).toBe(40);
    expect(await client.webhookDelivery.count({ where: { status: 'succeeded', attemptCount: 1 } })).toBe(40);
  });
});

describe("the worker's send pool", () => {
  it('claims without waiting for the sends, sends two at a time to one endpoint, and another endpoint beside them', async () => {
    const hanging = await receiver(() => ({ status: 200, hang: true }));
    await endpointAt(hanging.url);
    for (let i = 0; i < 5; i += 1) await emit('payment.succeeded', { id: `pay_${i}` });
    const pool = newSendPool();
    const startedAt = performance.now();
    expect(await claimDueWebhooks(await db(), pool, allowLocal)).toBe(5);
    expect(performance.now() - startedAt).toBeLessThan(2_000);
    await hanging.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hanging.received).toHaveLength(2);
    expect(pool.busyEndpoints()).toHaveLength(1);

    const healthy = await receiver();
    const other = (await createMerchant(await db(), { name: 'Other Shop' })).id;
    await createWebhookEndpoint(
      contextOf(await db(), other),
      { url: healthy.url, events: ['*'] },
      { allowPrivateUrls: true },
    );
    await emitEvent(await db(), other, 'payment.succeeded', { id: 'pay_other' });
    expect(await claimDueWebhooks(await db(), pool, allowLocal)).toBe(1);
    await healthy.waitFor(1, 2_000);

    // the hanging endpoint's connections end: the rest of its batch goes out, and the pool empties
    await hanging.close();
    await pool.idle();
    expect(await (await db()).webhookAttempt.count()).toBe(6);
  });
});

describe('events committed while no worker ran', () => {
  it('are delivered by the next worker pass, in a fresh connection', async () => {
    const hook = await receiver();
    await endpointAt(hook.url);
    const eventIds = [await emit(), await emit('refund.completed', { id: 'rr_1' })];
    expect(hook.received).toHaveLength(0);

    const fresh = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) });
    try {
      await deliverDueWebhooks(fresh, allowLocal);
    } finally {
      await fresh.$disconnect();
    }
    expect(hook.received.map((request) => request.headers['webhook-id']).sort()).toEqual(eventIds.sort());
  });
});

describe('dashboard actions', () => {
  it('resends a delivered webhook as a new, logged attempt', async () => {
    const hook = await receiver();
    await endpointAt(hook.url);
    const eventId = await emit();
    await drain();
    const delivery = await deliveryOf(eventId);

    const resent = await resendDelivery(contextOf(await db(), merchantId), delivery.id, allowLocal);
    expect(resent.delivery).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(resent.outcome).toMatchObject({ status: 200 });
    expect(hook.received.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(
      (await listAttempts(contextOf(await db(), merchantId), delivery.id)).map((attempt) => attempt.attempt),
    ).toEqual([1, 2]);
  });

  it('resends a failed delivery, and refuses a delivery of another merchant', async () => {
    let healthy = false;
    const hook = await receiver(() => ({ status: healthy ? 200 : 500 }));
    await endpointAt(hook.url);
    const eventId = await emit();
    await drain({ allowPrivateUrls: true, retryScale: 0.000001 });
    const delivery = await deliveryOf(eventId);
    expect(delivery.status).toBe('failed');

    const stranger = (await createMerchant(await db(), { name: 'Stranger' })).id;
    await expect(resendDelivery(contextOf(await db(), stranger), delivery.id, allowLocal)).rejects.toMatchObject({
      code: 'resource_missing',
    });

    healthy = true;
    expect((await resendDelivery(contextOf(await db(), merchantId), delivery.id, allowLocal)).delivery).toMatchObject({
      status: 'succeeded',
      attemptCount: 9,
    });
  });

  it('resends while a worker’s attempt is still in flight: the resend is its own attempt, and the late answer moves nothing', async () => {
    let down = true;
    const hook = await receiver(() => (down ? { status: 500, delayMs: 400 } : { status: 200 }));
    await endpointAt(hook.url);
    const eventId = await emit();
    const delivery = await deliveryOf(eventId);
    const workerPass = deliverDueWebhooks(await db(), allowLocal);
    await hook.waitFor(1);

    down = false;
    const resent = await resendDelivery(contextOf(await db(), merchantId), delivery.id, allowLocal);
    expect(resent.outcome.status).toBe(200);
    await workerPass;

    const after = await deliveryOf(eventId);
    expect(after).toMatchObject({ status: 'succeeded', attemptCount: 2, nextAttemptAt: null });
    expect(after.attempts.map((attempt) => [attempt.attempt, attempt.responseStatus])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  it('sends a signed test event straight away and reports the answer', async () => {
    const hook = await receiver(() => ({ status: 202, body: 'thanks' }));
    const endpoint = await endpointAt(hook.url);
    const outcome = await sendTestEvent(contextOf(await db(), merchantId), endpoint.id, { allowPrivateUrls: true });
    expect(outcome).toMatchObject({ status: 202, error: null, responseExcerpt: 'thanks' });
    const payload = new Webhook(endpoint.secret).verify(hook.received[0].body, hook.received[0].headers);
    expect(payload).toMatchObject({
      id: outcome.eventId,
      type: 'webhook_endpoint.test',
      data: { object: { id: endpoint.id } },
    });
    expect(await (await db()).event.count({ where: { id: outcome.eventId } })).toBe(0);
  });

  it('logs each test send among the endpoint’s deliveries, finished, never retried or resent, and out of the API’s list', async () => {
    let down = true;
    const hook = await receiver(() => (down ? { status: 503, body: 'maintenance' } : { status: 200, body: 'ok' }));
    const endpoint = await endpointAt(hook.url);
    const failed = await sendTestEvent(contextOf(await db(), merchantId), endpoint.id, { allowPrivateUrls: true });
    down = false;
    const delivered = await sendTestEvent(contextOf(await db(), merchantId), endpoint.id, { allowPrivateUrls: true });

    const logged = await (
      await db()
    ).webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { attempts: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(logged.map((delivery) => delivery.id)).toEqual([failed.deliveryId, delivered.deliveryId]);
    expect(logged[0]).toMatchObject({
      eventId: null,
      eventType: 'webhook_endpoint.test',
      status: 'failed',
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(logged[0].attempts).toEqual([
      expect.objectContaining({ attempt: 1, responseStatus: 503, responseExcerpt: 'maintenance' }),
    ]);
    expect(logged[1]).toMatchObject({ eventId: null, status: 'succeeded', attemptCount: 1 });
    expect(logged[1].attempts).toEqual([expect.objectContaining({ attempt: 1, responseStatus: 200 })]);

    // the worker never picks a test up again; a resend finds nothing
    expect(await deliverDueWebhooks(await db(), allowLocal)).toBe(0);
    expect(hook.received).toHaveLength(2);
    await expect(
      resendDelivery(contextOf(await db(), merchantId), failed.deliveryId, allowLocal),
    ).rejects.toMatchObject({
      code: 'resource_missing',
    });
    // the database holds the rule: only a test delivery names no event
    await expect(
      (await db()).webhookDelivery.create({
        data: { id: 'whd_noevent', eventId: null, eventType: 'payment.succeeded', endpointId: endpoint.id },
      }),
    ).rejects.toThrow();
  });

  it('deleting an endpoint ends its pending deliveries without sending them', async () => {
    const hook = await receiver();
    const endpoint = await endpointAt(hook.url);
    const eventId = await emit();
    await deleteWebhookEndpoint(contextOf(await db(), merchantId), endpoint.id);
    expect(await deliverDueWebhooks(await db(), allowLocal)).toBe(0);
    expect(hook.received).toHaveLength(0);
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'failed', nextAttemptAt: null });
    await expect(deleteWebhookEndpoint(contextOf(await db(), merchantId), endpoint.id)).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });
});

describe('secret rotation', () => {
  it('signs with the new and the old secret for 24 hours, then with the new one only', async () => {
    const hook = await receiver();
    const endpoint = await endpointAt(hook.url);
    const rotated = await rotateWebhookSecret(contextOf(await db(), merchantId), endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);

    await emit();
    await drain();
    const during = hook.received[0];
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(endpoint.secret).verify(during.body, during.headers)).toBeTruthy();

    advanceClock(24 * 3600_000 + 1000);
    await emit();
    await drain();
    const after = hook.received[1];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(after.body, after.headers)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers)).toThrow(/No matching signature/);
  });
});
