import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { createMerchant } from '@/lib/merchants/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { deliverDueWebhooks, type DeliveryOptions } from './deliver';
import { duplicateDelayMs, seededUnit, shuffled } from './faults';
import { createWebhookEndpoint, resendDelivery, updateWebhookEndpoint } from './service';
import type { FaultsInput } from './faults';
import { contextOf } from '@/test/context';

// Webhook fault injection (lib/webhooks/faults.ts) in the delivery job, against a real receiver on 127.0.0.1.

const allowLocal: DeliveryOptions = { allowPrivateUrls: true, retryScale: 0.0001 };

let merchantId: string;
let receivers: TestReceiver[] = [];

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Fault Shop' })).id;
});
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
  await (await db()).webhookEndpoint.deleteMany();
});

async function receiver() {
  const started = await startTestReceiver();
  receivers.push(started);
  return started;
}

async function endpointWith(url: string, faults: FaultsInput) {
  return createWebhookEndpoint(
    contextOf(await db(), merchantId),
    { url, events: ['*'], faults },
    { allowPrivateUrls: true },
  );
}

async function emit(i: number) {
  return emitEvent(await db(), merchantId, 'payment.succeeded', { id: `pay_${i}` });
}

/** The documented u(purpose), computed here independently of faults.ts. */
function documentedUnit(seed: number, n: number, purpose: string) {
  const digest = createHash('sha256').update(`${seed}:${n}:${purpose}`).digest();
  return Number(BigInt('0x' + digest.subarray(0, 6).toString('hex'))) / 2 ** 48;
}

/** Makes every waiting duplicate due now (instead of in 1–10 s). */
async function duplicatesDueNow() {
  await (
    await db()
  ).webhookDelivery.updateMany({
    where: { duplicateDueAt: { not: null } },
    data: { duplicateDueAt: new Date(Date.now() - 1000) },
  });
}

describe('the seeded rule', () => {
  it('is the one the operation documents', () => {
    for (const [seed, n] of [
      [42, 1],
      [-7, 12],
      [9_007_199_254_740_991, 3],
    ]) {
      expect(seededUnit(seed, n, 'duplicate')).toBe(documentedUnit(seed, n, 'duplicate'));
    }
    const endpoint = { faultDuplicateRate: 0.5, faultSeed: 42n };
    for (let n = 1; n <= 20; n += 1) {
      const delay = duplicateDelayMs(endpoint, BigInt(n));
      expect(delay !== null).toBe(documentedUnit(42, n, 'duplicate') < 0.5);
      if (delay !== null) expect(delay).toBe((1 + Math.floor(10 * documentedUnit(42, n, 'duplicate-delay'))) * 1000);
    }
    const batch = [1n, 2n, 3n, 4n, 5n].map((faultNumber) => ({ faultNumber }));
    const expected = [...batch].sort(
      (a, b) =>
        documentedUnit(7, Number(a.faultNumber), 'shuffle') - documentedUnit(7, Number(b.faultNumber), 'shuffle'),
    );
    expect(shuffled(batch, 7n)).toEqual(expected);
  });

  it('duplicates always at rate 1, never at rate 0, 1 to 10 s later', () => {
    for (let n = 1; n <= 200; n += 1) {
      const delay = duplicateDelayMs({ faultDuplicateRate: 1, faultSeed: null }, null)!;
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(10_000);
      expect(duplicateDelayMs({ faultDuplicateRate: 0, faultSeed: 3n }, BigInt(n))).toBeNull();
    }
  });
});

describe('numbering', () => {
  it('numbers a seeded endpoint’s deliveries in event order from 1, again from 1 when the seed is set', async () => {
    const hook = await receiver();
    const seeded = await endpointWith(hook.url, { seed: 5 });
    const plain = await endpointWith(hook.url, {});
    for (let i = 0; i < 3; i += 1) await emit(i);
    await updateWebhookEndpoint(contextOf(await db(), merchantId), seeded.id, { faults: { seed: 5 } });
    await emit(3);
    const numbers = async (endpointId: string) =>
      (await (await db()).webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' } })).map(
        (delivery) => delivery.faultNumber,
      );
    expect(await numbers(seeded.id)).toEqual([1n, 2n, 3n, 1n]);
    expect(await numbers(plain.id)).toEqual([null, null, null, null]);
  });
});

describe('duplicates', () => {
  it('two workers at once send an injected duplicate once: same webhook-id and body, fresh signature, logged', async () => {
    const hook = await receiver();
    const endpoint = await endpointWith(hook.url, { duplicate_rate: 1 });
    const eventId = await emit(1);
    await deliverDueWebhooks(await db(), allowLocal);
    expect(hook.received).toHaveLength(1);
    const waiting = await (await db()).webhookDelivery.findFirstOrThrow({ where: { eventId } });
    expect(waiting.status).toBe('succeeded');
    expect(waiting.duplicateDueAt!.getTime() - waiting.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(900);
    await duplicatesDueNow();

    const other = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) });
    try {
      await Promise.all([deliverDueWebhooks(await db(), allowLocal), deliverDueWebhooks(other, allowLocal)]);
      await Promise.all([deliverDueWebhooks(await db(), allowLocal), deliverDueWebhooks(other, allowLocal)]);
    } finally {
      await other.$disconnect();
    }
    expect(hook.received).toHaveLength(2);
    const [first, duplicate] = hook.received;
    expect(duplicate.headers['webhook-id']).toBe(eventId);
    expect(duplicate.body).toBe(first.body);
    expect(new Webhook(endpoint.secret).verify(duplicate.body, duplicate.headers)).toMatchObject({ id: eventId });
    const attempts = await (
      await db()
    ).webhookAttempt.findMany({
      where: { deliveryId: waiting.id },
      orderBy: { attempt: 'asc' },
    });
    expect(attempts.map((attempt) => [attempt.attempt, attempt.injected, attempt.responseStatus])).toEqual([
      [1, null, 200],
      [2, 'duplicate', 200],
    ]);
    expect((await (await db()).webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe(
      'succeeded',
    );
  });

  it('never duplicates at rate 0, nor a dashboard resend', async () => {
    const hook = await receiver();
    const never = await endpointWith(hook.url, { duplicate_rate: 0 });
    const always = await endpointWith(hook.url, { duplicate_rate: 1 });
    await emit(1);
    await deliverDueWebhooks(await db(), allowLocal);
    const client = await db();
    expect(await client.webhookDelivery.count({ where: { endpointId: never.id, duplicateDueAt: { not: null } } })).toBe(
      0,
    );
    const delivery = await client.webhookDelivery.findFirstOrThrow({ where: { endpointId: always.id } });
    expect(delivery.duplicateDueAt).not.toBeNull();
    await client.webhookDelivery.update({ where: { id: delivery.id }, data: { duplicateDueAt: null } });
    await resendDelivery(contextOf(client, merchantId), delivery.id, allowLocal);
    expect((await client.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).duplicateDueAt).toBeNull();
  });
});

describe('delay and shuffle', () => {
  it('holds the first attempt delay_seconds after the event; a new delay moves it', async () => {
    const hook = await receiver();
    const endpoint = await endpointWith(hook.url, { delay_seconds: 3600 });
    const eventId = await emit(1);
    const client = await db();
    const [event, delivery] = await Promise.all([
      client.event.findUniqueOrThrow({ where: { id: eventId } }),
      client.webhookDelivery.findFirstOrThrow({ where: { eventId } }),
    ]);
    expect(delivery.nextAttemptAt!.getTime() - event.createdAt.getTime()).toBe(3600_000);
    await deliverDueWebhooks(client, allowLocal);
    expect(hook.received).toHaveLength(0);
    await updateWebhookEndpoint(contextOf(client, merchantId), endpoint.id, { faults: { delay_seconds: 0 } });
    await deliverDueWebhooks(client, allowLocal);
    expect(hook.received.map((request) => request.headers['webhook-id'])).toEqual([eventId]);
  });

  it('sends a seeded shuffled batch in the documented order, the same for the same seed, one after another', async () => {
    const orders: string[][] = [];
    for (const run of [0, 1]) {
      merchantId = (await createMerchant(await db(), { name: `Shuffle ${run}` })).id;
      const hook = await receiver();
      const endpoint = await endpointWith(hook.url, { shuffle: true, seed: 99, delay_seconds: 3600 });
      const eventIds: string[] = [];
      for (let i = 0; i < 8; i += 1) eventIds.push(await emit(i));
      await updateWebhookEndpoint(contextOf(await db(), merchantId), endpoint.id, { faults: { delay_seconds: 0 } });
      await deliverDueWebhooks(await db(), allowLocal);
      const order = hook.received.map((request) => eventIds.indexOf(request.headers['webhook-id'] as string));
      const documented = [0, 1, 2, 3, 4, 5, 6, 7].sort(
        (a, b) => documentedUnit(99, a + 1, 'shuffle') - documentedUnit(99, b + 1, 'shuffle'),
      );
      expect(order).toEqual(documented);
      orders.push(order.map(String));
    }
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[0]).not.toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  });

  it('sends a shuffled batch whole, in the documented order, when older deliveries of another merchant fill most of a claim', async () => {
    const busyHook = await receiver();
    const busyMerchant = (await createMerchant(await db(), { name: 'Busy Shop' })).id;
    await createWebhookEndpoint(
      contextOf(await db(), busyMerchant),
      { url: busyHook.url, events: ['*'] },
      { allowPrivateUrls: true },
    );
    const hook = await receiver();
    const endpoint = await endpointWith(hook.url, { shuffle: true, seed: 99, delay_seconds: 3600 });
    const eventIds: string[] = [];
    for (let i = 0; i < 8; i += 1) eventIds.push(await emit(i));
    // the other merchant's deliveries are due before this batch: a claim of 5 takes them and two of the batch
    for (let i = 0; i < 3; i += 1) {
      const eventId = await emitEvent(await db(), busyMerchant, 'payment.succeeded', { id: `pay_busy_${i}` });
      await (
        await db()
      ).webhookDelivery.updateMany({ where: { eventId }, data: { nextAttemptAt: new Date(Date.now() - 60_000) } });
    }
    await updateWebhookEndpoint(contextOf(await db(), merchantId), endpoint.id, { faults: { delay_seconds: 0 } });

    await deliverDueWebhooks(await db(), { ...allowLocal, batchSize: 5 });

    expect(busyHook.received).toHaveLength(3);
    const order = hook.received.map((request) => eventIds.indexOf(request.headers['webhook-id'] as string));
    expect(order).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].sort(
        (a, b) => documentedUnit(99, a + 1, 'shuffle') - documentedUnit(99, b + 1, 'shuffle'),
      ),
    );
  });
});
