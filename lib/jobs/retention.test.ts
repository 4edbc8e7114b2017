import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { newId } from '@/lib/core/ids';
import { createMerchant } from '@/lib/merchants/service';
import { purgeExpiredRecords } from './retention';

// The worker's purge: request logs, events (with their deliveries and attempts), webhook attempts and test
// sends older than the retention go, a batch at a time; everything younger stays.

const DAY = 86_400_000;
const NOW = new Date();
const OLD = new Date(NOW.getTime() - 31 * DAY);
const RECENT = new Date(NOW.getTime() - 29 * DAY);
let merchantId: string;

/** An event with one delivery and its attempt, all made at `at`; and a request log and a test send of then. */
async function recordsAt(at: Date) {
  const client = await db();
  const endpoint = await client.webhookEndpoint.create({
    data: {
      id: newId('webhookEndpoint'),
      merchantId,
      url: 'https://shop.example.com/hooks',
      events: ['*'],
      secret: 'whsec_x',
    },
  });
  const event = await client.event.create({
    data: { id: newId('event'), merchantId, type: 'payment.succeeded', data: {}, createdAt: at },
  });
  for (const eventId of [event.id, null]) {
    await client.webhookDelivery.create({
      data: {
        id: newId('webhookDelivery'),
        eventId,
        eventType: eventId ? 'payment.succeeded' : 'webhook_endpoint.test',
        endpointId: endpoint.id,
        status: 'succeeded',
        createdAt: at,
        attempts: { create: { attempt: 1, responseStatus: 200, durationMs: 5, createdAt: at } },
      },
    });
  }
  await client.apiRequestLog.create({
    data: {
      merchantId,
      method: 'GET',
      path: '/v1/payments',
      status: 200,
      durationMs: 3,
      requestId: 'req_1',
      createdAt: at,
    },
  });
}

async function counts() {
  const client = await db();
  const where = { createdAt: { lt: new Date(NOW.getTime() - 30 * DAY) } };
  return {
    old: {
      logs: await client.apiRequestLog.count({ where }),
      events: await client.event.count({ where }),
      deliveries: await client.webhookDelivery.count({ where }),
      attempts: await client.webhookAttempt.count({ where }),
    },
    all: {
      logs: await client.apiRequestLog.count(),
      events: await client.event.count(),
      deliveries: await client.webhookDelivery.count(),
      attempts: await client.webhookAttempt.count(),
    },
  };
}

beforeEach(async () => {
  const client = await db();
  await client.merchant.deleteMany();
  merchantId = (await createMerchant(client, { name: 'Old Shop' })).id;
  for (let i = 0; i < 3; i++) await recordsAt(OLD);
  await recordsAt(RECENT);
});

describe('purgeExpiredRecords', () => {
  it('deletes everything older than the retention and nothing younger', async () => {
    const before = await counts();
    expect(before.old).toEqual({ logs: 3, events: 3, deliveries: 6, attempts: 6 });
    const deleted = await purgeExpiredRecords(await db(), { days: 30, batchSize: 2, maxBatches: 10 }, NOW);
    expect(deleted).toBe(3 + 6 + 3 + 3); // logs, attempts, test sends, events (their deliveries cascade)
    expect(await counts()).toEqual({
      old: { logs: 0, events: 0, deliveries: 0, attempts: 0 },
      all: { logs: 1, events: 1, deliveries: 2, attempts: 2 },
    });
  });

  it('goes a batch at a time, and the next run goes on', async () => {
    const retention = { days: 30, batchSize: 2, maxBatches: 1 };
    expect(await purgeExpiredRecords(await db(), retention, NOW)).toBe(2 * 4);
    expect((await counts()).old).toEqual({ logs: 1, events: 1, deliveries: 2, attempts: 2 });
    await purgeExpiredRecords(await db(), retention, NOW);
    await purgeExpiredRecords(await db(), retention, NOW);
    expect((await counts()).old).toEqual({ logs: 0, events: 0, deliveries: 0, attempts: 0 });
  });

  it('keeps what a longer retention covers', async () => {
    expect(await purgeExpiredRecords(await db(), { days: 40, batchSize: 100, maxBatches: 1 }, NOW)).toBe(0);
  });
});
