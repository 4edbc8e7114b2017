import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { startTestReceiver, type ReceivedWebhook, type TestReceiver } from '@/test/support/webhook-receiver';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';

// /docs: webhook fault injection (lib/webhooks/faults.ts) over HTTP, with events arriving at real receivers from the
// running server's worker.

type Client = ReturnType<typeof apiClient>;

const NO_FAULTS = { duplicate_rate: 0, delay_seconds: 0, shuffle: false, seed: null };
const receivers: TestReceiver[] = [];
let api: Client;

beforeAll(async () => {
  api = await newMerchant();
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function newMerchant() {
  return apiClient((await createTestMerchant()).key);
}

async function receiver() {
  const started = await startTestReceiver();
  receivers.push(started);
  return started;
}

async function endpointFor(client: Client, url: string, faults?: object) {
  const response = await client.post('/v1/webhook-endpoints', {
    url,
    events: ['checkout_session.expired'],
    ...(faults ? { faults } : {}),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; secret: string; faults: typeof NO_FAULTS };
}

/** Makes one checkout_session.expired event; returns its id and creation time. */
async function expiredEvent(client: Client): Promise<{ id: string; createdAt: number }> {
  const session = await client.post('/v1/checkout-sessions', sessionBody());
  expect((await client.post(`/v1/checkout-sessions/${session.body.id}/expire`)).status).toBe(200);
  const events = await client.get('/v1/events?limit=1&type=checkout_session.expired');
  const [event] = events.body.data;
  expect(event.data.object.id).toBe(session.body.id);
  return { id: event.id, createdAt: Date.parse(event.created_at) };
}

/** The documented u(purpose) of a seeded endpoint's n-th delivery. */
function documentedUnit(seed: number, n: number, purpose: string) {
  const digest = createHash('sha256').update(`${seed}:${n}:${purpose}`).digest();
  return Number(BigInt('0x' + digest.subarray(0, 6).toString('hex'))) / 2 ** 48;
}

/**
 * The endpoint's deliveries once none has an attempt or an injected duplicate still to come, read from the
 * server's database: from then on nothing more is sent to the endpoint, so what its receiver holds is all it gets.
 * (Deliveries are written with their event, for the endpoints enabled and subscribed then.)
 */
async function settledDeliveries(endpointId: string) {
  const client = await db();
  const settled = await eventually(
    () => client.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' } }),
    (deliveries) => deliveries.every((delivery) => delivery.status !== 'pending' && delivery.duplicateDueAt === null),
    30_000,
  );
  expect(settled.map((delivery) => [delivery.status, delivery.duplicateDueAt])).toEqual(
    settled.map(() => ['succeeded', null]),
  );
  return settled;
}
const ids = (received: ReceivedWebhook[]) => received.map((request) => request.headers['webhook-id']);

describe('faults on an endpoint', () => {
  it('are off by default, set at creation, shown by get and list, and merged field by field on update', async () => {
    const plain = await endpointFor(api, 'http://127.0.0.1:4000/plain');
    expect(plain.faults).toEqual(NO_FAULTS);
    const faulty = await endpointFor(api, 'http://127.0.0.1:4000/faulty', { duplicate_rate: 0.25, seed: 7 });
    expect(faulty.faults).toEqual({ duplicate_rate: 0.25, delay_seconds: 0, shuffle: false, seed: 7 });
    expect((await api.get(`/v1/webhook-endpoints/${faulty.id}`)).body.faults).toEqual(faulty.faults);
    const listed = await api.get('/v1/webhook-endpoints?limit=100');
    expect(listed.body.data.find((each: { id: string }) => each.id === faulty.id).faults).toEqual(faulty.faults);

    const updated = await api.post(`/v1/webhook-endpoints/${faulty.id}`, { faults: { delay_seconds: 30 } });
    expect(updated.status).toBe(200);
    expect(updated.body.faults).toEqual({ duplicate_rate: 0.25, delay_seconds: 30, shuffle: false, seed: 7 });
    const cleared = await api.post(`/v1/webhook-endpoints/${faulty.id}`, { faults: { seed: null, shuffle: true } });
    expect(cleared.body.faults).toEqual({ duplicate_rate: 0.25, delay_seconds: 30, shuffle: true, seed: null });
    expect((await api.get(`/v1/webhook-endpoints/${faulty.id}`)).body).toEqual(cleared.body);
  });

  it('updates url, events, description and status, keeping what is not sent, and replays a retried update', async () => {
    const endpoint = await endpointFor(api, 'http://127.0.0.1:4000/before');
    const update = () =>
      api.post(
        `/v1/webhook-endpoints/${endpoint.id}`,
        {
          url: 'http://127.0.0.1:4000/after',
          events: ['payment.succeeded', 'refund.completed'],
          description: 'renamed',
          status: 'disabled',
        },
        { idempotencyKey: `update-${endpoint.id}` },
      );
    const changed = await update();
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: endpoint.id,
      object: 'webhook_endpoint',
      url: 'http://127.0.0.1:4000/after',
      events: ['payment.succeeded', 'refund.completed'],
      description: 'renamed',
      status: 'disabled',
      faults: NO_FAULTS,
    });
    expect(changed.body).not.toHaveProperty('secret');
    const replayed = await update();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(changed.body);

    const partly = await api.post(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'enabled' });
    expect(partly.body).toEqual({ ...changed.body, status: 'enabled' });
    const noDescription = await api.post(`/v1/webhook-endpoints/${endpoint.id}`, { description: null });
    expect(noDescription.body.description).toBeNull();
  });

  it('refuses bad values as parameter_invalid naming the field, and an unknown endpoint as resource_missing', async () => {
    const endpoint = await endpointFor(api, 'http://127.0.0.1:4000/checked');
    const cases: [object, string][] = [
      [{ faults: { duplicate_rate: 1.5 } }, 'faults.duplicate_rate'],
      [{ faults: { duplicate_rate: -0.1 } }, 'faults.duplicate_rate'],
      [{ faults: { delay_seconds: 3601 } }, 'faults.delay_seconds'],
      [{ faults: { delay_seconds: 1.5 } }, 'faults.delay_seconds'],
      [{ faults: { shuffle: 'yes' } }, 'faults.shuffle'],
      [{ faults: { seed: 2.5 } }, 'faults.seed'],
      [{ faults: { seed: '42' } }, 'faults.seed'],
      [{ status: 'paused' }, 'status'],
      [{ url: 'ftp://example.com/hooks' }, 'url'],
      [{ events: [] }, 'events'],
    ];
    for (const [body, param] of cases) {
      const refused = await api.post(`/v1/webhook-endpoints/${endpoint.id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param });
    }
    const atCreation = await api.post('/v1/webhook-endpoints', {
      url: 'http://127.0.0.1:4000/x',
      events: ['*'],
      faults: { delay_seconds: -1 },
    });
    expect(atCreation.status).toBe(400);
    expect(atCreation.body.error.param).toBe('faults.delay_seconds');
    expect((await api.get(`/v1/webhook-endpoints/${endpoint.id}`)).body.faults).toEqual(NO_FAULTS);
    const missing = await api.post('/v1/webhook-endpoints/we_000000000000000000000000', { status: 'disabled' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
  });

  it('a disabled endpoint gets no deliveries of new events; enabled again, it does', async () => {
    const client = await newMerchant();
    const hook = await receiver();
    const endpoint = await endpointFor(client, hook.url);
    await client.post(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'disabled' });
    await expiredEvent(client);
    await client.post(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'enabled' });
    const later = await expiredEvent(client);
    await hook.waitFor(1);
    expect((await settledDeliveries(endpoint.id)).map((delivery) => delivery.eventId)).toEqual([later.id]);
    expect(ids(hook.received)).toEqual([later.id]);
  });
});

describe('duplicates', () => {
  it('at rate 1 every delivered event comes once more 1–10 s later, same webhook-id and body, freshly signed; at rate 0 never', async () => {
    const client = await newMerchant();
    const [always, never] = [await receiver(), await receiver()];
    const alwaysEndpoint = await endpointFor(client, always.url, { duplicate_rate: 1 });
    const neverEndpoint = await endpointFor(client, never.url, { duplicate_rate: 0 });
    const events = [await expiredEvent(client), await expiredEvent(client)];
    await always.waitFor(4, 30_000);
    await Promise.all([settledDeliveries(alwaysEndpoint.id), settledDeliveries(neverEndpoint.id)]);
    expect(always.received).toHaveLength(4);
    expect(never.received).toHaveLength(2);
    const verifier = new Webhook(alwaysEndpoint.secret);
    for (const event of events) {
      const [first, duplicate] = always.received.filter((request) => request.headers['webhook-id'] === event.id);
      expect(duplicate.body).toBe(first.body);
      expect(verifier.verify(duplicate.body, duplicate.headers)).toMatchObject({ id: event.id });
      expect(duplicate.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(900);
      expect(duplicate.receivedAt - first.receivedAt).toBeLessThan(12_000);
      expect(Number(duplicate.headers['webhook-timestamp'])).toBeGreaterThan(
        Number(first.headers['webhook-timestamp']),
      );
      expect(duplicate.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
    }
  });

  it('the same seed duplicates the same deliveries on every run, as documented', async () => {
    const seed = 11;
    const count = 6;
    const expected = Array.from({ length: count }, (_, i) => i).filter(
      (i) => documentedUnit(seed, i + 1, 'duplicate') < 0.5,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(count);
    const runs = await Promise.all(
      [0, 1].map(async () => {
        const client = await newMerchant();
        const hook = await receiver();
        const endpoint = await endpointFor(client, hook.url, { duplicate_rate: 0.5, seed });
        const eventIds: string[] = [];
        for (let i = 0; i < count; i += 1) eventIds.push((await expiredEvent(client)).id);
        await hook.waitFor(count + expected.length, 30_000);
        await settledDeliveries(endpoint.id);
        const sent = ids(hook.received);
        return eventIds.map((id, i) => [i, sent.filter((each) => each === id).length]).filter(([, n]) => n > 1);
      }),
    );
    expect(runs[0]).toEqual(expected.map((i) => [i, 2]));
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe('delay and order', () => {
  it('holds the first attempt delay_seconds after the event', async () => {
    const client = await newMerchant();
    const hook = await receiver();
    await endpointFor(client, hook.url, { delay_seconds: 3 });
    const event = await expiredEvent(client);
    const [first] = await hook.waitFor(1, 15_000);
    expect(first.headers['webhook-id']).toBe(event.id);
    expect(first.receivedAt - event.createdAt).toBeGreaterThanOrEqual(3000);
    expect(first.receivedAt - event.createdAt).toBeLessThan(8000);
  });

  it('sends a seeded shuffled batch in the same order for the same seed and events, not in event order', async () => {
    const seed = 2026;
    const count = 8;
    const documented = Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => documentedUnit(seed, a + 1, 'shuffle') - documentedUnit(seed, b + 1, 'shuffle'),
    );
    const orders: number[][] = [];
    for (const _run of [0, 1]) {
      const client = await newMerchant();
      const hook = await receiver();
      // held for an hour, then released together by setting the delay to 0: one due batch
      const endpoint = await endpointFor(client, hook.url, { shuffle: true, seed, delay_seconds: 3600 });
      const eventIds: string[] = [];
      for (let i = 0; i < count; i += 1) eventIds.push((await expiredEvent(client)).id);
      // every one of them waits for its hour, none sent yet
      const held = await (await db()).webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
      expect(held).toHaveLength(count);
      for (const delivery of held) {
        expect(delivery.status).toBe('pending');
        expect(delivery.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(3000_000);
      }
      expect(hook.received).toHaveLength(0);
      await client.post(`/v1/webhook-endpoints/${endpoint.id}`, { faults: { delay_seconds: 0 } });
      await hook.waitFor(count, 15_000);
      orders.push(ids(hook.received).map((id) => eventIds.indexOf(id)));
    }
    expect(orders[0]).toEqual(documented);
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[0]).not.toEqual([...documented].sort((a, b) => a - b));
  });
});
