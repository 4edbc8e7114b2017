import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '@/lib/api-keys/service';
import { expireCheckoutSession } from '@/lib/checkout-sessions/service';
import { db, inTransaction } from '@/lib/db';
import { APPLICATION_NAME } from '@/lib/db/change-notices';
import { emitEvent } from '@/lib/events/service';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';
import { openStream, type StreamClient } from '../support/event-stream-client';
import { contextOf } from '@/test/context';

// GET /v1/events/stream (/docs#streamEvents) against the running server (which pings every 300 ms:
// test/setup/server.global.ts). Events are made through the API, and through the services in this test
// process, which is another process with its own database connection.

let merchant: { merchantId: string; key: string };
let api: ReturnType<typeof apiClient>;
const open: StreamClient[] = [];

beforeAll(async () => {
  merchant = await createTestMerchant();
  api = apiClient(merchant.key);
});

afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

async function stream(key: string, options: Parameters<typeof openStream>[1] = {}) {
  const opened = await openStream(key, options);
  open.push(opened);
  // the first ping says the stream is listening
  if (opened.status === 200) await opened.waitForComments(1);
  return opened;
}

async function openSession(client = api): Promise<string> {
  const created = await client.post('/v1/checkout-sessions', sessionBody());
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** A checkout_session.expired event made through the API; its event id. */
async function expiredThroughApi(client = api): Promise<string> {
  const id = await openSession(client);
  expect((await client.post(`/v1/checkout-sessions/${id}/expire`)).status).toBe(200);
  const events = await client.get('/v1/events?type=checkout_session.expired&limit=1');
  expect(events.body.data[0].data.object.id).toBe(id);
  return events.body.data[0].id;
}

const idsOf = (stream: StreamClient) => stream.messages.map((message) => message.id);

describe('GET /v1/events/stream', () => {
  it('sends each new event of the connection as a message whose data is the event object', async () => {
    const listening = await stream(merchant.key);
    expect(listening.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(listening.headers.get('request-id')).toMatch(/^req_/);
    const other = await createTestMerchant();
    const othersStream = await stream(other.key);

    const eventId = await expiredThroughApi();
    const otherEventId = await expiredThroughApi(apiClient(other.key));
    const [message] = await listening.waitForMessages(1);
    expect(message.id).toBe(eventId);
    expect(message.event).toBe('checkout_session.expired');
    expect(JSON.parse(message.data)).toEqual((await api.get(`/v1/events/${eventId}`)).body);
    await othersStream.waitForMessages(1);
    expect(idsOf(othersStream)).toEqual([otherEventId]);

    // other merchants' events never appear, nor do events from before the stream opened
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(idsOf(listening)).toEqual([eventId]);
    expect(idsOf(othersStream)).toEqual([otherEventId]);
  });

  it('delivers an event written by another process', async () => {
    const listening = await stream(merchant.key);
    const sessionId = await openSession();
    // this test process, with its own connection to the server's database, is not the server
    await expireCheckoutSession(contextOf(await db(), merchant.merchantId), sessionId);
    const [message] = await listening.waitForMessages(1);
    expect(message.event).toBe('checkout_session.expired');
    expect(JSON.parse(message.data).data.object.id).toBe(sessionId);
  });

  it('delivers an event whose transaction commits after a later event was sent', async () => {
    const listening = await stream(merchant.key);
    let lateId = '';
    let earlyId = '';
    await inTransaction(await db(), async (tx) => {
      // written first (so numbered first), committed last
      lateId = await emitEvent(tx, merchant.merchantId, 'payment.failed', { id: 'pay_late', object: 'payment' });
      earlyId = await expiredThroughApi();
      await listening.waitForMessages(1);
    });
    await listening.waitForMessages(2);
    expect(idsOf(listening)).toEqual([earlyId, lateId]);
  });

  it('delivers an event committed while the server had lost its listener', async () => {
    const listening = await stream(merchant.key);
    const sessionId = await openSession();
    const client = await db();
    // every process's LISTEN connection, the server's included, is cut; the event commits before they are back
    await client.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME}`;
    await expireCheckoutSession(contextOf(client, merchant.merchantId), sessionId);
    const [message] = await listening.waitForMessages(1);
    expect(JSON.parse(message.data).data.object.id).toBe(sessionId);
  });

  it('resumes after Last-Event-ID, skipping nothing and repeating nothing', async () => {
    const first = await stream(merchant.key);
    const made: string[] = [];
    for (let n = 0; n < 5; n += 1) made.push(await expiredThroughApi());
    await first.waitForMessages(2);
    const lastRead = first.messages[1].id!;
    first.close();
    for (let n = 0; n < 3; n += 1) made.push(await expiredThroughApi());
    expect(made[1]).toBe(lastRead);

    const resumed = await stream(merchant.key, { lastEventId: lastRead });
    await resumed.waitForMessages(6);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(idsOf(resumed)).toEqual(made.slice(2));
  });

  it('keeps only the types asked for', async () => {
    const filtered = await stream(merchant.key, { query: '?types=payment.failed,%20payment.succeeded' });
    await expiredThroughApi();
    const sessionId = await openSession();
    const declined = await api.post(`/v1/test-helpers/checkout-sessions/${sessionId}/pay`, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    expect(declined.body.status).toBe('failed');
    const [message] = await filtered.waitForMessages(1);
    expect([message.event, JSON.parse(message.data).data.object.id]).toEqual(['payment.failed', declined.body.id]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(filtered.messages).toHaveLength(1);
  });

  it('pings every interval', async () => {
    const listening = await stream(merchant.key);
    await listening.waitForComments(4, 5_000);
    expect(new Set(listening.comments)).toEqual(new Set(['ping']));
  });

  it('refuses a stream past the 20 one merchant may hold, with 429, Retry-After and the limit named', async () => {
    const crowded = await createTestMerchant();
    const held = await Promise.all(Array.from({ length: 20 }, () => stream(crowded.key)));
    expect(held.map((opened) => opened.status)).toEqual(held.map(() => 200));
    const refused = await stream(crowded.key);
    expect([refused.status, refused.error?.error.code]).toEqual([429, 'rate_limited']);
    expect(refused.error?.error.message).toMatch(/may hold 20 at once .*\(EVENT_STREAMS_PER_MERCHANT\)/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // another merchant is not held back
    expect((await stream(merchant.key)).status).toBe(200);

    held[0].close();
    let again = await stream(crowded.key);
    for (let tries = 0; again.status === 429 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await stream(crowded.key);
    }
    expect(again.status).toBe(200);
  });

  it("ends a key's streams within a second of its revocation in another process, and no other key's", async () => {
    const holder = await createTestMerchant();
    const [revoked, kept] = [await stream(holder.key), await stream(merchant.key)];
    const client = await db();
    const [key] = await client.apiKey.findMany({ where: { merchantId: holder.merchantId } });
    const startedAt = performance.now();
    // this test process is not the server: the server hears of it through the key's change notice
    await Promise.all([revokeApiKey(contextOf(client, holder.merchantId), key.id), revoked.ended]);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    expect((await stream(holder.key)).status).toBe(401);
    const pings = kept.comments.length;
    await kept.waitForComments(pings + 2, 5_000);
  });

  it('answers mistakes in JSON, not with a stream', async () => {
    const refusals: [StreamClient, number, string, string?][] = [
      [await stream(''), 401, 'authentication_required'],
      [await stream(`sk_sandbox_${'A'.repeat(32)}`), 401, 'invalid_api_key'],
      [await stream((await createTestMerchant({ scopes: ['payments:read'] })).key), 403, 'insufficient_scope'],
      [await stream(merchant.key, { query: '?types=payment.created' }), 400, 'parameter_invalid', 'types'],
      [await stream(merchant.key, { query: '?type=payment.failed' }), 400, 'parameter_unknown', 'type'],
      [await stream(merchant.key, { lastEventId: `evt_${'0'.repeat(24)}` }), 400, 'parameter_invalid', 'Last-Event-ID'],
      [await stream(merchant.key, { lastEventId: 'yesterday' }), 400, 'parameter_invalid', 'Last-Event-ID'],
    ];
    // another merchant's event is not one to resume after
    const others = await createTestMerchant();
    const othersEvent = await expiredThroughApi(apiClient(others.key));
    refusals.push([
      await stream(merchant.key, { lastEventId: othersEvent }),
      400,
      'parameter_invalid',
      'Last-Event-ID',
    ]);
    for (const [answer, status, code, param] of refusals) {
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect([answer.status, answer.error?.error.code, answer.error?.error.param]).toEqual([status, code, param]);
    }
  });
});
