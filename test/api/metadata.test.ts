import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { startPaymentLinkCheckout } from '@/lib/payment-links/checkout';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { apiClient, createTestMerchant, sessionBody, type ApiResponse } from '../helpers';
import { merchantContexts } from '@/lib/core/context';

// metadata (lib/core/metadata.ts) over HTTP: its limits on every body that takes it, the objects that show it, the
// copies (session → payment, link → session → payment), the merge of POST /v1/payment-links/{id}, events and
// webhooks carrying it, and the Idempotency-Key's fingerprint covering it.

let api: ReturnType<typeof apiClient>;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  api = apiClient((await createTestMerchant()).key);
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

const linkBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Gift card',
  amount: 2500,
  currency: 'USD',
  ...overrides,
});

function expectCreated(res: ApiResponse, status = 201) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

async function paidPayment(metadata?: Record<string, string>) {
  const session = expectCreated(await api.post('/v1/checkout-sessions', sessionBody(metadata ? { metadata } : {})));
  const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  return { session, payment: expectCreated(paid, 200) };
}

function keys(count: number, prefix = 'k'): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, `v${i}`]));
}

/** Each endpoint that takes metadata: a valid body with the given metadata, sent. */
const endpoints: [string, (metadata: unknown) => Promise<ApiResponse>][] = [
  ['POST /v1/checkout-sessions', (metadata) => api.post('/v1/checkout-sessions', sessionBody({ metadata }))],
  [
    'POST /v1/refund-requests',
    async (metadata) => {
      const { payment } = await paidPayment();
      return api.post('/v1/refund-requests', { payment_id: payment.id, amount: 100, metadata });
    },
  ],
  ['POST /v1/payment-links', (metadata) => api.post('/v1/payment-links', linkBody({ metadata }))],
  [
    'POST /v1/payment-links/{id}',
    async (metadata) => {
      const link = expectCreated(await api.post('/v1/payment-links', linkBody()));
      return api.post(`/v1/payment-links/${link.id}`, { metadata });
    },
  ],
];

const refused: [string, unknown, string, RegExp][] = [
  ['51 keys', keys(51), 'metadata', /at most 50/],
  ['a key of 41 characters', { ['k'.repeat(41)]: 'x' }, 'metadata', /1–40 characters/],
  ['an empty key', { '': 'x' }, 'metadata', /1–40 characters/],
  ['a value of 501 characters', { note: 'x'.repeat(501) }, 'metadata.note', /at most 500 characters/],
  ['a number value', { count: 3 }, 'metadata.count', /must be a string/],
  ['a null value', { count: null }, 'metadata.count', /must be a string/],
  ['an object value', { nested: { a: 'b' } }, 'metadata.nested', /must be a string/],
  ['a string', 'order=1', 'metadata', /object whose values are strings/],
  ['a number', 5, 'metadata', /object whose values are strings/],
  ['null', null, 'metadata', /object whose values are strings/],
  ['an array', ['a', 'b'], 'metadata', /object whose values are strings/],
];

describe.each(endpoints)('%s: metadata', (_name, send) => {
  it.each(refused)('refuses %s with 400 parameter_invalid', async (_case, metadata, param, message) => {
    const res = await send(metadata);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param });
    expect(res.body.error.message).toMatch(message);
  });

  it('takes 50 keys, a key of 40 characters and a value of 500', async () => {
    const metadata = { ...keys(48), ['k'.repeat(40)]: 'x', note: 'y'.repeat(500) };
    const res = await send(metadata);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(res.body.metadata).toEqual(metadata);
  });
});

describe('the objects', () => {
  it('show metadata {} when none was given, on creation and when read', async () => {
    const { session, payment } = await paidPayment();
    const refund = expectCreated(await api.post('/v1/refund-requests', { payment_id: payment.id, amount: 100 }));
    const link = expectCreated(await api.post('/v1/payment-links', linkBody()));
    for (const object of [session, payment, refund, link]) expect(object.metadata).toEqual({});
    const reads = await Promise.all([
      api.get(`/v1/checkout-sessions/${session.id}`),
      api.get(`/v1/payments/${payment.id}`),
      api.get(`/v1/refund-requests/${refund.id}`),
      api.get(`/v1/payment-links/${link.id}`),
    ]);
    for (const read of reads) expect(read.body.metadata).toEqual({});
  });

  it('keep what was given, in GET and lists alike; a key given as "" is left out of a create', async () => {
    const { session, payment } = await paidPayment({ cart: 'c_1', gone: '' });
    expect(session.metadata).toEqual({ cart: 'c_1' });
    const refund = expectCreated(
      await api.post('/v1/refund-requests', { payment_id: payment.id, amount: 100, metadata: { ticket: 'T-9' } }),
    );
    expect(refund.metadata).toEqual({ ticket: 'T-9' });
    expect((await api.get(`/v1/refund-requests/${refund.id}`)).body.metadata).toEqual({ ticket: 'T-9' });
    const listed = await api.get(`/v1/checkout-sessions?order_reference=${session.order_reference}`);
    expect(listed.body.data[0].metadata).toEqual({ cart: 'c_1' });
  });
});

describe('copies', () => {
  it('a payment copies its session’s metadata when it is made', async () => {
    const { session, payment } = await paidPayment({ cart: 'c_42', customer: 'cus_7' });
    expect(payment.metadata).toEqual({ cart: 'c_42', customer: 'cus_7' });
    expect((await api.get(`/v1/payments/${payment.id}`)).body.metadata).toEqual(session.metadata);
  });

  it('a failed payment copies it too', async () => {
    const session = expectCreated(await api.post('/v1/checkout-sessions', sessionBody({ metadata: { try: '1' } })));
    const declined = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    expect(declined.body).toMatchObject({ status: 'failed', metadata: { try: '1' } });
  });

  it('a session made by a payment link copies the link’s metadata, and its payment the session’s', async () => {
    const link = expectCreated(await api.post('/v1/payment-links', linkBody({ metadata: { campaign: 'winter' } })));
    expectCreated(await api.post(`/v1/payment-links/${link.id}`, { metadata: { channel: 'email' } }), 200);
    // "Pay" on /pay/{id}: the service the page's action calls
    const checkout = await startPaymentLinkCheckout(merchantContexts(await db()), link.id, null);
    const session = (await api.get(`/v1/checkout-sessions/${checkout.id}`)).body;
    expect(session.metadata).toEqual({ campaign: 'winter', channel: 'email' });
    const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(paid.body.metadata).toEqual({ campaign: 'winter', channel: 'email' });
    // a later change of the link does not reach sessions already made
    await api.post(`/v1/payment-links/${link.id}`, { metadata: { campaign: '' } });
    expect((await api.get(`/v1/checkout-sessions/${session.id}`)).body.metadata).toEqual(session.metadata);
  });
});

describe('POST /v1/payment-links/{id} merges metadata', () => {
  async function linkWith(metadata: Record<string, string>) {
    return expectCreated(await api.post('/v1/payment-links', linkBody({ metadata })));
  }

  it('sets given keys, removes keys given as "", keeps the others', async () => {
    const link = await linkWith({ keep: '1', change: 'old', drop: 'x' });
    const res = await api.post(`/v1/payment-links/${link.id}`, {
      metadata: { change: 'new', drop: '', added: 'a', absent: '' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata).toEqual({ keep: '1', change: 'new', added: 'a' });
    expect((await api.get(`/v1/payment-links/${link.id}`)).body.metadata).toEqual(res.body.metadata);
  });

  it('leaves metadata alone when the update does not give it', async () => {
    const link = await linkWith({ keep: '1' });
    const res = await api.post(`/v1/payment-links/${link.id}`, { name: 'Renamed' });
    expect(res.body).toMatchObject({ name: 'Renamed', metadata: { keep: '1' } });
  });

  it('applies the 50-key limit to the merged result, and then changes nothing', async () => {
    const link = await linkWith(keys(49));
    const over = await api.post(`/v1/payment-links/${link.id}`, { name: 'Renamed', metadata: { a: '1', b: '2' } });
    expect(over.status, JSON.stringify(over.body)).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata' });
    expect(over.body.error.message).toMatch(/more than 50 metadata keys/);
    const unchanged = (await api.get(`/v1/payment-links/${link.id}`)).body;
    expect(unchanged).toEqual(link);
    // removals count before the limit: one out, two in, still 50
    const swapped = await api.post(`/v1/payment-links/${link.id}`, { metadata: { k0: '', a: '1', b: '2' } });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect(Object.keys(swapped.body.metadata)).toHaveLength(50);
  });

  it('keeps every key of concurrent updates with different keys (the merge is in the UPDATE)', async () => {
    const link = await linkWith({ base: '0' });
    const updates = Array.from({ length: 12 }, (_, i) =>
      api.post(`/v1/payment-links/${link.id}`, { metadata: { [`writer${i}`]: String(i) } }),
    );
    for (const res of await Promise.all(updates)) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const merged = (await api.get(`/v1/payment-links/${link.id}`)).body.metadata;
    expect(merged).toEqual({
      base: '0',
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`writer${i}`, String(i)])),
    });
  });

  it('lets concurrent updates fill the link up to 50 keys and no further', async () => {
    const link = await linkWith(keys(45));
    const updates = Array.from({ length: 8 }, (_, i) =>
      api.post(`/v1/payment-links/${link.id}`, { metadata: { [`extra${i}`]: 'x' } }),
    );
    const statuses = (await Promise.all(updates)).map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 400)).toHaveLength(3);
    expect(Object.keys((await api.get(`/v1/payment-links/${link.id}`)).body.metadata)).toHaveLength(50);
  });
});

describe('events and webhooks', () => {
  it('carry the objects with their metadata', async () => {
    const own = apiClient((await createTestMerchant()).key);
    const receiver = await startTestReceiver();
    receivers.push(receiver);
    const endpoint = expectCreated(
      await own.post('/v1/webhook-endpoints', {
        url: receiver.url,
        events: ['checkout_session.completed', 'payment.succeeded', 'refund_request.created'],
      }),
    );
    const session = expectCreated(await own.post('/v1/checkout-sessions', sessionBody({ metadata: { cart: 'c_99' } })));
    const payment = expectCreated(
      await own.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      }),
      200,
    );
    expectCreated(
      await own.post('/v1/refund-requests', { payment_id: payment.id, amount: 100, metadata: { ticket: 'T-1' } }),
    );

    const events = (await own.get('/v1/events?limit=10')).body.data as { type: string; data: { object: any } }[];
    const byType = Object.fromEntries(events.map((event) => [event.type, event.data.object]));
    expect(byType['checkout_session.completed']).toMatchObject({ id: session.id, metadata: { cart: 'c_99' } });
    expect(byType['payment.succeeded']).toMatchObject({ id: payment.id, metadata: { cart: 'c_99' } });
    expect(byType['refund_request.created']).toMatchObject({ metadata: { ticket: 'T-1' } });

    const delivered = await receiver.waitFor(3, 30_000);
    const wh = new Webhook(endpoint.secret);
    const payloads = delivered.map(
      (webhook) => wh.verify(webhook.body, webhook.headers) as { type: string; data: { object: any } },
    );
    const completed = payloads.find((payload) => payload.type === 'checkout_session.completed');
    expect(completed?.data.object.metadata).toEqual({ cart: 'c_99' });
    const succeeded = payloads.find((payload) => payload.type === 'payment.succeeded');
    expect(succeeded?.data.object.metadata).toEqual({ cart: 'c_99' });
  });
});

describe('the Idempotency-Key', () => {
  it('fingerprints metadata: the same key with other metadata is 422 idempotency_key_reused', async () => {
    const body = sessionBody({ metadata: { cart: 'c_1' } });
    const first = await api.post('/v1/checkout-sessions', body, { idempotencyKey: `meta-${body.order_reference}` });
    expect(first.status).toBe(201);
    const replay = await api.post('/v1/checkout-sessions', body, { idempotencyKey: `meta-${body.order_reference}` });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await api.post(
      '/v1/checkout-sessions',
      { ...body, metadata: { cart: 'c_2' } },
      { idempotencyKey: `meta-${body.order_reference}` },
    );
    expect(other.status, JSON.stringify(other.body)).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    const without = await api.post(
      '/v1/checkout-sessions',
      { ...body, metadata: undefined },
      { idempotencyKey: `meta-${body.order_reference}` },
    );
    expect(without.status).toBe(422);
  });

  it('fingerprints a payment link update’s metadata too', async () => {
    const link = expectCreated(await api.post('/v1/payment-links', linkBody()));
    const key = `meta-update-${link.id}`;
    const first = await api.post(`/v1/payment-links/${link.id}`, { metadata: { a: '1' } }, { idempotencyKey: key });
    expect(first.status).toBe(200);
    const other = await api.post(`/v1/payment-links/${link.id}`, { metadata: { a: '2' } }, { idempotencyKey: key });
    expect(other.status, JSON.stringify(other.body)).toBe(422);
    expect((await api.get(`/v1/payment-links/${link.id}`)).body.metadata).toEqual({ a: '1' });
  });
});
