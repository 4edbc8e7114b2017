import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { EVENT_TYPES } from '@/lib/events/types';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';

// /docs#webhooks and /docs#objects over HTTP: the endpoints and events APIs, and events arriving at a real receiver
// from the running server's worker (WEBHOOK_RETRY_SCALE=0.001, private URLs allowed for 127.0.0.1).

let api: ReturnType<typeof apiClient>;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  api = apiClient((await createTestMerchant()).key);
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(...args: Parameters<typeof startTestReceiver>) {
  const started = await startTestReceiver(...args);
  receivers.push(started);
  return started;
}

const createEndpoint = (body: Record<string, unknown>, client = api) => client.post('/v1/webhook-endpoints', body);

async function session(client: typeof api, captureMethod: 'automatic' | 'manual' = 'automatic') {
  const response = await client.post('/v1/checkout-sessions', { ...sessionBody(), capture_method: captureMethod });
  expect(response.status).toBe(201);
  return response.body;
}

async function pay(client: typeof api, sessionId: string, card_number: string) {
  const response = await client.post(`/v1/test-helpers/checkout-sessions/${sessionId}/pay`, {
    payment_method: 'card',
    card_number,
  });
  expect(response.status).toBe(200);
  return response.body;
}

describe('POST /v1/webhook-endpoints', () => {
  it('creates an endpoint and shows its secret this once', async () => {
    const created = await createEndpoint({
      url: 'http://127.0.0.1:4000/hooks',
      events: ['payment.succeeded'],
      description: 'orders',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
      object: 'webhook_endpoint',
      url: 'http://127.0.0.1:4000/hooks',
      description: 'orders',
      events: ['payment.succeeded'],
      status: 'enabled',
      faults: { duplicate_rate: 0, delay_seconds: 0, shuffle: false, seed: null },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const read = await api.get(`/v1/webhook-endpoints/${created.body.id}`);
    expect(read.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(read.body).toEqual(withoutSecret);
    const listed = await api.get('/v1/webhook-endpoints?limit=100');
    expect(listed.body.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('replays a retried creation with the same Idempotency-Key instead of making a second endpoint', async () => {
    const body = { url: 'http://127.0.0.1:4000/replay', events: ['*'] };
    const first = await api.post('/v1/webhook-endpoints', body, { idempotencyKey: 'we-replay-1' });
    const again = await api.post('/v1/webhook-endpoints', body, { idempotencyKey: 'we-replay-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it.each([
    ['no url', { events: ['*'] }, 'parameter_missing', 'url'],
    ['an ftp url', { url: 'ftp://hooks.example.com/x', events: ['*'] }, 'parameter_invalid', 'url'],
    ['a relative url', { url: '/hooks', events: ['*'] }, 'parameter_invalid', 'url'],
    ['a url that is not a string', { url: 42, events: ['*'] }, 'parameter_invalid', 'url'],
    ['no events', { url: 'http://127.0.0.1:4000/x' }, 'parameter_missing', 'events'],
    ['an empty events list', { url: 'http://127.0.0.1:4000/x', events: [] }, 'parameter_invalid', 'events'],
    [
      'an unknown event type',
      { url: 'http://127.0.0.1:4000/x', events: ['payment.succeeded', 'payment.refunded'] },
      'parameter_invalid',
      'events.1',
    ],
    [
      'a repeated event type',
      { url: 'http://127.0.0.1:4000/x', events: ['refund.failed', 'refund.failed'] },
      'parameter_invalid',
      'events',
    ],
    [
      '"*" beside other types',
      { url: 'http://127.0.0.1:4000/x', events: ['*', 'refund.failed'] },
      'parameter_invalid',
      'events',
    ],
    [
      'a description over 500 characters',
      { url: 'http://127.0.0.1:4000/x', events: ['*'], description: 'x'.repeat(501) },
      'parameter_invalid',
      'description',
    ],
    [
      'a secret chosen by the caller',
      { url: 'http://127.0.0.1:4000/x', events: ['*'], secret: 'whsec_AAAA' },
      'parameter_unknown',
      'secret',
    ],
  ])('refuses %s', async (_name, body, code, param) => {
    const response = await createEndpoint(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
  });

  it('needs an Idempotency-Key', async () => {
    const response = await api.post(
      '/v1/webhook-endpoints',
      { url: 'http://127.0.0.1:4000/x', events: ['*'] },
      { idempotencyKey: null },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_missing' });
  });
});

describe('webhook endpoint scopes and ownership', () => {
  it('needs webhook_endpoints:write for every endpoint route', async () => {
    const readOnly = apiClient((await createTestMerchant({ scopes: ['events:read', 'payments:read'] })).key);
    const { body: endpoint } = await createEndpoint({ url: 'http://127.0.0.1:4000/scoped', events: ['*'] });
    for (const response of [
      await readOnly.post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:4000/x', events: ['*'] }),
      await readOnly.get('/v1/webhook-endpoints'),
      await readOnly.get(`/v1/webhook-endpoints/${endpoint.id}`),
      await readOnly.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`),
      await readOnly.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
      expect(response.body.error.message).toContain('webhook_endpoints:write');
    }
  });

  it('answers 404 for an endpoint of another merchant, exactly as for one that does not exist', async () => {
    const stranger = apiClient((await createTestMerchant()).key);
    const { body: endpoint } = await createEndpoint({ url: 'http://127.0.0.1:4000/mine', events: ['*'] });
    for (const id of [endpoint.id, 'we_000000000000000000000000', 'nonsense']) {
      for (const response of [
        await stranger.get(`/v1/webhook-endpoints/${id}`),
        await stranger.request('DELETE', `/v1/webhook-endpoints/${id}`),
        await stranger.post(`/v1/webhook-endpoints/${id}/rotate-secret`),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
      }
    }
    expect((await stranger.get('/v1/webhook-endpoints')).body.data).toEqual([]);
  });

  it('answers 405 with Allow for other methods', async () => {
    const response = await api.request('PUT', '/v1/webhook-endpoints');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
  });
});

describe('DELETE /v1/webhook-endpoints/{id}', () => {
  it('deletes once: then the endpoint is gone from reads and lists', async () => {
    const { body: endpoint } = await createEndpoint({ url: 'http://127.0.0.1:4000/bye', events: ['*'] });
    const deleted = await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    expect((await api.get(`/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect(
      (await api.get('/v1/webhook-endpoints?limit=100')).body.data.map((item: { id: string }) => item.id),
    ).not.toContain(endpoint.id);
  });
});

describe('GET /v1/webhook-endpoints', () => {
  it('pages newest first with limit and starting_after', async () => {
    const own = apiClient((await createTestMerchant()).key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await createEndpoint({ url: `http://127.0.0.1:4000/p${i}`, events: ['*'] }, own)).body.id);
    const first = await own.get('/v1/webhook-endpoints?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    const rest = await own.get(`/v1/webhook-endpoints?limit=2&starting_after=${ids[1]}`);
    expect(rest.body).toMatchObject({ has_more: false });
    expect(rest.body.data.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
  });
});

describe('POST /v1/webhook-endpoints/{id}/rotate-secret', () => {
  it('returns a new secret, shown once', async () => {
    const { body: endpoint } = await createEndpoint({ url: 'http://127.0.0.1:4000/rotate', events: ['*'] });
    const rotated = await api.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect((await api.get(`/v1/webhook-endpoints/${endpoint.id}`)).body.secret).toBeUndefined();
  });
});

describe('events arriving at a receiver', () => {
  it('delivers every event type, signed so that the standardwebhooks package verifies each, and only the subscribed ones', async () => {
    const merchant = await createTestMerchant();
    const own = apiClient(merchant.key);
    const all = await receiver();
    const refundsOnly = await receiver();
    const { body: allEndpoint } = await createEndpoint({ url: all.url, events: ['*'] }, own);
    const { body: refundEndpoint } = await createEndpoint(
      { url: refundsOnly.url, events: ['refund.completed', 'refund.failed'] },
      own,
    );

    const paid = await session(own);
    await pay(own, paid.id, '4000000000000002'); // payment.failed
    const payment = await pay(own, paid.id, '4242424242424242'); // payment.succeeded, checkout_session.completed
    expect((await own.post('/v1/refund-requests', { payment_id: payment.id, amount: 1000 })).status).toBe(201); // refund_request.created → .approved → refund.completed
    const failing = await session(own);
    const failingPayment = await pay(own, failing.id, '4000000000005126');
    expect((await own.post('/v1/refund-requests', { payment_id: failingPayment.id, amount: 1000 })).status).toBe(201); // → refund.failed
    const expiring = await session(own);
    expect((await own.post(`/v1/checkout-sessions/${expiring.id}/expire`)).status).toBe(200); // checkout_session.expired
    const held = await session(own, 'manual');
    const authorization = await pay(own, held.id, '4242424242424242'); // payment.authorized, checkout_session.completed
    expect((await own.post(`/v1/payments/${authorization.id}/cancel`)).status).toBe(200); // payment.canceled

    const delivered = await all.waitFor(15, 30_000);
    await refundsOnly.waitFor(2, 30_000);
    const wh = new Webhook(allEndpoint.secret);
    const payloads = delivered.map(
      (webhook) => wh.verify(webhook.body, webhook.headers) as { id: string; type: string },
    );
    // a refund declined or canceled: test/api/refund-events.test.ts
    const elsewhere = ['refund_request.declined', 'refund_request.canceled'];
    expect(new Set(payloads.map((payload) => payload.type))).toEqual(
      new Set(EVENT_TYPES.filter((type) => !elsewhere.includes(type))),
    );
    for (const [i, webhook] of delivered.entries()) {
      expect(webhook.headers['webhook-id']).toBe(payloads[i].id);
      expect(Number(webhook.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
      // the body is the event exactly as the events API shows it
      expect(JSON.parse(webhook.body)).toEqual((await own.get(`/v1/events/${payloads[i].id}`)).body);
    }
    const refundTypes = refundsOnly.received.map(
      (webhook) => (new Webhook(refundEndpoint.secret).verify(webhook.body, webhook.headers) as { type: string }).type,
    );
    expect(refundTypes.sort()).toEqual(['refund.completed', 'refund.failed']);
    // the other endpoint's secret does not verify these
    expect(() => new Webhook(refundEndpoint.secret).verify(delivered[0].body, delivered[0].headers)).toThrow();

    // a receiver rejects a tampered body, and the same webhook replayed later than five minutes
    const [sample] = delivered;
    expect(() => wh.verify(sample.body.replace('"object":"event"', '"object":"evil"'), sample.headers)).toThrow(
      /No matching signature/,
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60_000);
      expect(() => wh.verify(sample.body, sample.headers)).toThrow(/too old/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries an endpoint that fails twice: it is delivered exactly once more, with 3 attempts logged', async () => {
    const own = apiClient((await createTestMerchant()).key);
    const flaky = await receiver((nth) =>
      nth <= 2 ? { status: 500, body: 'not yet' } : { status: 200, body: 'got it' },
    );
    const { body: endpoint } = await createEndpoint({ url: flaky.url, events: ['checkout_session.expired'] }, own);
    const expiring = await session(own);
    await own.post(`/v1/checkout-sessions/${expiring.id}/expire`);

    await flaky.waitFor(3, 30_000);
    // a few more worker passes: nothing more is sent
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(flaky.received).toHaveLength(3);
    expect(new Set(flaky.received.map((webhook) => webhook.headers['webhook-id'])).size).toBe(1);

    const client = await db();
    const delivery = await client.webhookDelivery.findFirstOrThrow({
      where: { endpointId: endpoint.id },
      include: { attempts: { orderBy: { attempt: 'asc' } } },
    });
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 3, nextAttemptAt: null });
    expect(
      delivery.attempts.map((attempt) => [attempt.attempt, attempt.responseStatus, attempt.responseExcerpt]),
    ).toEqual([
      [1, 500, 'not yet'],
      [2, 500, 'not yet'],
      [3, 200, 'got it'],
    ]);
  });
});

describe('GET /v1/events', () => {
  let own: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    own = apiClient((await createTestMerchant()).key);
    for (let i = 0; i < 3; i += 1) {
      await own.post(`/v1/checkout-sessions/${(await session(own)).id}/expire`);
    }
    await pay(own, (await session(own)).id, '4000000000000002');
  });

  it('lists the merchant’s events newest first, and filters by type', async () => {
    const all = await own.get('/v1/events?limit=100');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: 'list', has_more: false });
    expect(all.body.data.map((event: { type: string }) => event.type)).toEqual([
      'payment.failed',
      'checkout_session.expired',
      'checkout_session.expired',
      'checkout_session.expired',
    ]);
    expect(all.body.data[0]).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{24}$/),
      object: 'event',
      type: 'payment.failed',
      created_at: expect.stringMatching(/Z$/),
      data: { object: expect.objectContaining({ object: 'payment', status: 'failed', failure_code: 'card_declined' }) },
    });
    const expired = await own.get('/v1/events?type=checkout_session.expired');
    expect(expired.body.data).toHaveLength(3);
    expect(
      expired.body.data.every(
        (event: { type: string; data: { object: { status: string } } }) => event.data.object.status === 'expired',
      ),
    ).toBe(true);
    expect((await own.get('/v1/events?type=refund.failed')).body).toEqual({
      object: 'list',
      data: [],
      has_more: false,
    });
  });

  it('pages with limit and starting_after', async () => {
    const all = (await own.get('/v1/events?limit=100')).body.data.map((event: { id: string }) => event.id);
    const first = await own.get('/v1/events?type=checkout_session.expired&limit=2');
    expect(first.body.has_more).toBe(true);
    const rest = await own.get(
      `/v1/events?type=checkout_session.expired&limit=2&starting_after=${first.body.data[1].id}`,
    );
    expect(rest.body.has_more).toBe(false);
    expect([...first.body.data, ...rest.body.data].map((event: { id: string }) => event.id)).toEqual(all.slice(1));
  });

  it.each([
    ['type=payment.refunded', 'parameter_invalid', 'type'],
    ['limit=0', 'parameter_invalid', 'limit'],
    ['limit=101', 'parameter_invalid', 'limit'],
    ['colour=red', 'parameter_unknown', 'colour'],
  ])('refuses ?%s', async (query, code, param) => {
    const response = await own.get(`/v1/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('reads one event, and answers 404 for another merchant’s', async () => {
    const [latest] = (await own.get('/v1/events?limit=1')).body.data;
    expect((await own.get(`/v1/events/${latest.id}`)).body).toEqual(latest);
    const stranger = apiClient((await createTestMerchant()).key);
    for (const id of [latest.id, 'evt_000000000000000000000000', 'nope']) {
      const response = await stranger.get(`/v1/events/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
    const cursorOfStranger = await stranger.get(`/v1/events?starting_after=${latest.id}`);
    expect(cursorOfStranger.status).toBe(404);
  });

  it('needs events:read', async () => {
    const writer = apiClient(
      (await createTestMerchant({ scopes: ['webhook_endpoints:write', 'checkout_sessions:write'] })).key,
    );
    for (const path of ['/v1/events', '/v1/events/evt_000000000000000000000000']) {
      const response = await writer.get(path);
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ code: 'insufficient_scope' });
      expect(response.body.error.message).toContain('events:read');
    }
  });
});
