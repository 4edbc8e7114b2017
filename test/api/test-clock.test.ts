import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { everyProcessHasHeard } from '@/lib/db/change-notices';
import { SCOPES } from '@/lib/api-keys/scopes';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { createMerchant } from '@/lib/merchants/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { createTestDatabase } from '../setup/databases';
import { startNextServer, type NextServer } from '../setup/next-server';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';
import { contextOf } from '@/test/context';

// Test clocks (lib/test-clocks/service.ts): one per connection, forward only, and its "now" is the time of everything the
// connection does and sees. The shared server checks the endpoints and what a request decides; a server of
// this file's own, with its own database (no other worker to finish its refunds) and the real provider delay
// and retry schedule, checks the worker's queues: without the clock none of them would move for minutes.

const MINUTE = 60;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Client = ReturnType<typeof apiClient>;

async function newMerchant(): Promise<Client> {
  return apiClient((await createTestMerchant()).key);
}

const advance = (client: Client, seconds: unknown, idempotencyKey?: string | null) =>
  client.post('/v1/test-helpers/clock/advance', { seconds }, { idempotencyKey });

async function openSession(client: Client) {
  const created = await client.post('/v1/checkout-sessions', sessionBody());
  expect(created.status).toBe(201);
  return created.body;
}

describe('GET /v1/test-helpers/clock and POST …/advance', () => {
  it('starts at the wall clock, and an advance moves it forward by exactly the seconds asked', async () => {
    const client = await newMerchant();
    const before = Date.now();
    const read = await client.get('/v1/test-helpers/clock');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ object: 'test_clock', now: expect.stringMatching(ISO_MS), offset_seconds: 0 });
    expect(Math.abs(Date.parse(read.body.now) - before)).toBeLessThan(5_000);

    const advanced = await advance(client, 3_600);
    expect(advanced.status).toBe(200);
    expect(advanced.body).toEqual({ object: 'test_clock', now: expect.stringMatching(ISO_MS), offset_seconds: 3_600 });
    expect(Date.parse(advanced.body.now) - Date.now()).toBeGreaterThan(3_590_000);
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(3_600);
  });

  it.each([
    ['zero', 0],
    ['a negative number', -60],
    ['more than a year', 31_536_001],
    ['a fraction', 1.5],
    ['a string', '60'],
    ['null', null],
  ])('refuses %s with parameter_invalid on seconds, and the clock stays', async (_what, seconds) => {
    const client = await newMerchant();
    const refused = await advance(client, seconds);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'seconds' });
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(0);
  });

  it('takes a whole year at once', async () => {
    const client = await newMerchant();
    expect((await advance(client, 31_536_000)).body.offset_seconds).toBe(31_536_000);
  });

  it('stops 50 years ahead: concurrent advances past that are refused and change nothing, with a key or without', async () => {
    const { merchantId, key } = await createTestMerchant();
    const client = apiClient(key);
    // 1 000 s short of 49 years on already, set directly so the test need not make 49 advances
    const nearly = 49 * 31_536_000 - 1_000;
    await (await db()).merchant.update({ where: { id: merchantId }, data: { clockOffsetSeconds: nearly } });
    // the server's key cache holds the offset; the merchants trigger's notice makes it forget within this bound
    await everyProcessHasHeard();
    const keys = [null, 'too-far-1', 'too-far-2'];
    const answers = await Promise.all(keys.map((idempotencyKey) => advance(client, 31_536_000, idempotencyKey)));
    // one of them fits (1 000 s short of the limit after it), the others would pass the limit
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'seconds' });
      expect(refused.body.error.message).toMatch(/at most 1576800000 seconds \(50 years\) ahead/);
    }
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(nearly + 31_536_000);
    // a refused key stays free: the same key with an advance that fits is served
    const refusedKey = keys.find((idempotencyKey, i) => idempotencyKey && answers[i].status === 400);
    expect((await advance(client, 1_000, refusedKey)).status).toBe(200);
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(50 * 31_536_000);
  });

  it('adds up 10 concurrent advances exactly', async () => {
    const client = await newMerchant();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => advance(client, 100 + i)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const total = Array.from({ length: 10 }, (_, i) => 100 + i).reduce((sum, n) => sum + n, 0);
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(total);
    // each answer is the clock as that advance left it: ten different offsets, the last one the total
    const offsets = answers.map((answer) => answer.body.offset_seconds as number).sort((a, b) => a - b);
    expect(new Set(offsets).size).toBe(10);
    expect(offsets.at(-1)).toBe(total);
  });

  it('advances once per Idempotency-Key: a retry replays the first answer, even among concurrent ones', async () => {
    const client = await newMerchant();
    const answers = await Promise.all(Array.from({ length: 5 }, () => advance(client, 600, 'clock-key-1')));
    expect((await client.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(600);
    const served = answers.filter((answer) => answer.status === 200);
    expect(served.length).toBeGreaterThan(0);
    for (const answer of served) expect(answer.body).toEqual(served[0].body);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const again = await advance(client, 600, 'clock-key-1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ object: 'test_clock', now: served[0].body.now, offset_seconds: 600 });
    expect((await advance(client, 700, 'clock-key-1')).status).toBe(422);
  });

  it('keeps each connection on its own clock', async () => {
    const [first, second] = await Promise.all([newMerchant(), newMerchant()]);
    await advance(first, 7_200);
    expect((await first.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(7_200);
    expect((await second.get('/v1/test-helpers/clock')).body.offset_seconds).toBe(0);
    const [mine, theirs] = await Promise.all([openSession(first), openSession(second)]);
    expect(Date.parse(mine.created_at) - Date.parse(theirs.created_at)).toBeGreaterThan(7_190_000);
  });

  it('needs payments:read to read and checkout_sessions:write to advance', async () => {
    const reader = apiClient((await createTestMerchant({ scopes: ['payments:read'] })).key);
    expect((await reader.get('/v1/test-helpers/clock')).status).toBe(200);
    expect((await advance(reader, 60)).body.error.code).toBe('insufficient_scope');
    const writer = apiClient((await createTestMerchant({ scopes: ['checkout_sessions:write'] })).key);
    expect((await writer.get('/v1/test-helpers/clock')).body.error.code).toBe('insufficient_scope');
  });
});

describe("a connection's time", () => {
  it('dates its new objects and events: created_at and expires_at follow the clock', async () => {
    const client = await newMerchant();
    await advance(client, 2 * 86_400);
    const clock = (await client.get('/v1/test-helpers/clock')).body;
    const session = await openSession(client);
    expect(Math.abs(Date.parse(session.created_at) - Date.parse(clock.now))).toBeLessThan(5_000);
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(30 * MINUTE * 1000);
    const payment = (
      await client.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      })
    ).body;
    const refund = (await client.post('/v1/refund-requests', { payment_id: payment.id, amount: 100 })).body;
    const link = (await client.post('/v1/payment-links', { name: 'Mug', amount: 1200, currency: 'USD' })).body;
    const endpoint = (await client.post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }))
      .body;
    const events = (await client.get('/v1/events?limit=100')).body.data;
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const at of [payment, refund, link, endpoint, ...events].map((object) => object.created_at)) {
      const ahead = Date.parse(at) - Date.now();
      expect(ahead).toBeGreaterThan(2 * 86_400_000 - 60_000);
      expect(ahead).toBeLessThan(2 * 86_400_000 + 60_000);
    }
  });

  it('expires an open session 30 minutes on: GET says expired, and neither the API nor the page take payment', async () => {
    const client = await newMerchant();
    const session = await openSession(client);
    await advance(client, 29 * MINUTE);
    expect((await client.get(`/v1/checkout-sessions/${session.id}`)).body.status).toBe('open');
    await advance(client, 2 * MINUTE);
    expect((await client.get(`/v1/checkout-sessions/${session.id}`)).body.status).toBe('expired');
    const listed = (await client.get('/v1/checkout-sessions?status=expired&limit=100')).body.data;
    expect(listed.map((one: { id: string }) => one.id)).toContain(session.id);

    const paid = await client.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(paid.status).toBe(409);
    expect(paid.body.error.code).toBe('checkout_session_not_open');

    const page = await fetch(`${inject('serverUrl')}/checkout/${session.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('This checkout has expired');
  });

  it("does not expire another connection's session", async () => {
    const [mover, other] = await Promise.all([newMerchant(), newMerchant()]);
    const session = await openSession(other);
    await advance(mover, 31 * MINUTE);
    expect((await other.get(`/v1/checkout-sessions/${session.id}`)).body.status).toBe('open');
    const page = await fetch(`${inject('serverUrl')}/checkout/${session.id}`);
    expect(await page.text()).not.toContain('This checkout has expired');
  });
});

// ---- the worker's queues, on a server of this file's own

const REFUND_DELAY_MS = 3_600_000;
let server: NextServer;
let client: PrismaClient;
let worker: Client;
let receiver: TestReceiver;

/** A merchant of this file's own database, and a client for it on its server. */
async function workerMerchant(): Promise<Client> {
  const merchant = await createMerchant(client, { name: 'Clock Shop', hosts: ['shop.example.com'] });
  const { key } = await createApiKey(contextOf(client, merchant.id), [...SCOPES]);
  return apiClient(key, server.url);
}

describe("the worker, on each connection's time", () => {
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase(inject('adminUrl'), 'clock');
    client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
    server = await startNextServer({
      databaseUrl,
      name: 'api-test-clock',
      env: { REFUND_PROCESSING_DELAY_MS: String(REFUND_DELAY_MS), WEBHOOK_RETRY_SCALE: '1' },
    });
    receiver = await startTestReceiver((nth) => (nth <= 2 ? { status: 500, body: 'not yet' } : { status: 200 }));
    worker = await workerMerchant();
  }, 90_000);
  afterAll(async () => {
    server?.stop();
    await receiver?.close();
    await client?.$disconnect();
  });

  it('sweeps a session past its expiry in connection time and sends checkout_session.expired dated then', async () => {
    const session = await openSession(worker);
    const other = await workerMerchant();
    const untouched = await openSession(other);
    const clock = (await advance(worker, 31 * MINUTE)).body;
    const events = await eventually(
      async () => (await worker.get('/v1/events?type=checkout_session.expired')).body.data,
      (found: Array<{ created_at: string; data: { object: { id: string; status: string } } }>) => found.length > 0,
      15_000,
    );
    expect(events.map((event) => event.data.object.id)).toEqual([session.id]);
    const ahead = Date.parse(events[0].created_at) - Date.parse(clock.now);
    expect(ahead).toBeGreaterThanOrEqual(-1_000);
    expect(ahead).toBeLessThan(20_000);
    expect(events[0].data.object.status).toBe('expired');
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).status).toBe('expired');
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: untouched.id } })).status).toBe('open');
  }, 30_000);

  it('finishes a processing refund once REFUND_PROCESSING_DELAY_MS of connection time has passed', async () => {
    const session = await openSession(worker);
    const payment = (
      await worker.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      })
    ).body;
    const refund = (await worker.post('/v1/refund-requests', { payment_id: payment.id, amount: 500 })).body;
    const read = () => worker.get(`/v1/refund-requests/${refund.id}`).then((answer) => answer.body);
    expect((await eventually(read, (one) => one.status === 'processing')).status).toBe('processing');
    // two worker ticks with the provider an hour away: still processing
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await read()).status).toBe('processing');
    await advance(worker, REFUND_DELAY_MS / 1000);
    const finished = await eventually(read, (one) => one.status === 'completed', 10_000);
    expect(finished.status).toBe('completed');
  }, 30_000);

  it('makes the next webhook attempt when 5 minutes of connection time have passed after a failed one', async () => {
    const merchant = await workerMerchant();
    const endpoint = await merchant.post('/v1/webhook-endpoints', { url: receiver.url, events: ['payment.succeeded'] });
    expect(endpoint.status).toBe(201);
    const session = await openSession(merchant);
    await merchant.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    // the schedule (/docs#webhooks): the second attempt about 5 s after the first, the third 5 minutes after that
    await receiver.waitFor(2, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.received).toHaveLength(2);
    await advance(merchant, 5 * MINUTE);
    const all = await receiver.waitFor(3, 10_000);
    expect(all[2].headers['webhook-id']).toBe(all[0].headers['webhook-id']);
    const deliveries = await eventually(
      () => client.webhookDelivery.findMany({ where: { endpointId: endpoint.body.id } }),
      (found) => found.every((delivery) => delivery.status === 'succeeded'),
    );
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['succeeded']);
  }, 40_000);
});
