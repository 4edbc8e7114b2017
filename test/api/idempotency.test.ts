import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';

let api: ReturnType<typeof apiClient>;
let merchantId: string;
let key: string;

beforeAll(async () => {
  const merchant = await createTestMerchant();
  merchantId = merchant.merchantId;
  key = merchant.key;
  api = apiClient(merchant.key);
});

async function paidPaymentId(): Promise<string> {
  const session = await api.post('/v1/checkout-sessions', sessionBody());
  const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  return paid.body.id;
}

describe('Idempotency-Key (/docs#idempotency)', () => {
  it('replays the first answer with 200 and Idempotent-Replayed, creating nothing again', async () => {
    const body = sessionBody();
    const first = await api.post('/v1/checkout-sessions', body, { idempotencyKey: 'replay-1' });
    // same content, other key order and spacing: same fingerprint
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await api.post('/v1/checkout-sessions', reordered, { idempotencyKey: 'replay-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const client = await db();
    expect(await client.checkoutSession.count({ where: { merchantId, orderReference: body.order_reference } })).toBe(1);
  });

  // the creates claim their key in the statement that writes them, the other POSTs before their transaction
  it.each([
    ['/v1/checkout-sessions', 201, async () => sessionBody({ order_reference: 'bytes-1' })],
    [
      '/v1/payment-links',
      201,
      async () => ({ name: 'Workshop ticket', amount: 4500, currency: 'CAD', description: 'Saturday, 10 am' }),
    ],
    ['/v1/refund-requests', 201, async () => ({ payment_id: await paidPaymentId(), amount: 500, reason: 'Returned' })],
    [
      '/v1/test-helpers/checkout-sessions/{id}/pay',
      200,
      async () => ({ payment_method: 'card', card_number: '4242424242424242' }),
    ],
  ])('replays the very bytes of the first answer of %s, keys in the same order', async (path, status, makeBody) => {
    const body = JSON.stringify(await makeBody());
    const session = path.includes('{id}') ? await api.post('/v1/checkout-sessions', sessionBody()) : undefined;
    const send = () =>
      fetch(`${inject('serverUrl')}${path.replace('{id}', session?.body.id)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'bytes-1' },
        body,
      });
    const first = await send();
    const replayed = await send();
    expect([first.status, replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([status, 200, 'true']);
    expect(await replayed.text()).toBe(await first.text());
  });

  it('422s the same key with a different body', async () => {
    await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'reused-1' });
    const res = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'reused-1' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
  });

  it('stores nothing for a rejected request, so the key can be retried', async () => {
    const body = sessionBody();
    const rejected = await api.post('/v1/checkout-sessions', { ...body, amount: 1 }, { idempotencyKey: 'retry-1' });
    expect(rejected.status).toBe(400);
    const retried = await api.post('/v1/checkout-sessions', body, { idempotencyKey: 'retry-1' });
    expect(retried.status).toBe(201);
  });

  it('stores nothing when the order turns out to be paid, so the key can be used for another order', async () => {
    const paid = sessionBody();
    const session = await api.post('/v1/checkout-sessions', paid);
    await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, { payment_method: 'usdc' });
    const refused = await api.post('/v1/checkout-sessions', paid, { idempotencyKey: 'paid-order-1' });
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'order_already_paid']);
    const client = await db();
    expect(await client.idempotencyKey.count({ where: { merchantId, key: 'paid-order-1' } })).toBe(0);
    const another = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'paid-order-1' });
    expect(another.status).toBe(201);
  });

  it('scopes keys to the endpoint and the connection', async () => {
    const session = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'shared-key' });
    expect(session.status).toBe(201);
    const pay = await api.post(
      `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`,
      { payment_method: 'usdc' },
      { idempotencyKey: 'shared-key' },
    );
    expect(pay.status).toBe(200);
    expect(pay.headers.get('idempotent-replayed')).toBeNull();
    const other = apiClient((await createTestMerchant()).key);
    const otherSession = await other.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'shared-key' });
    expect(otherSession.status).toBe(201);
  });

  it('409s while the first request with the key is still running', async () => {
    const client = await db();
    // a first request in flight: its key row exists without a response
    await client.idempotencyKey.create({
      data: { merchantId, endpoint: 'POST /v1/checkout-sessions', key: 'in-flight', fingerprint: 'pending' },
    });
    const res = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'in-flight' });
    // a different body would be 422; make the fingerprints equal to see the 409
    expect(res.status).toBe(422);
    const body = sessionBody();
    const { fingerprint } = await import('@/lib/idempotency/service');
    await client.idempotencyKey.create({
      data: { merchantId, endpoint: 'POST /v1/checkout-sessions', key: 'in-flight-2', fingerprint: fingerprint(body) },
    });
    const busy = await api.post('/v1/checkout-sessions', body, { idempotencyKey: 'in-flight-2' });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_in_use' });
  });

  it('lets a request take over a key whose first request died over a minute ago', async () => {
    const client = await db();
    const body = sessionBody();
    const { fingerprint } = await import('@/lib/idempotency/service');
    await client.idempotencyKey.create({
      data: {
        merchantId,
        endpoint: 'POST /v1/checkout-sessions',
        key: 'stale',
        fingerprint: fingerprint(body),
        lockedAt: new Date(Date.now() - 2 * 60_000),
      },
    });
    const res = await api.post('/v1/checkout-sessions', body, { idempotencyKey: 'stale' });
    expect(res.status).toBe(201);
  });

  it('forgets keys after 24 hours', async () => {
    const body = sessionBody();
    const first = await api.post('/v1/checkout-sessions', body, { idempotencyKey: 'old-key' });
    const client = await db();
    await client.idempotencyKey.updateMany({
      where: { merchantId, key: 'old-key' },
      data: { createdAt: new Date(Date.now() - 25 * 3600_000) },
    });
    const later = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'old-key' });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('replays a test-helper pay without paying or emitting again', async () => {
    const session = await api.post('/v1/checkout-sessions', sessionBody());
    const body = { payment_method: 'card', card_number: '4242424242424242' };
    const first = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, body, {
      idempotencyKey: 'pay-once',
    });
    const replay = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, body, {
      idempotencyKey: 'pay-once',
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const client = await db();
    expect(await client.payment.count({ where: { checkoutSessionId: session.body.id } })).toBe(1);
    expect(
      await client.event.count({
        where: { type: 'payment.succeeded', data: { path: ['object', 'id'], equals: first.body.id } },
      }),
    ).toBe(1);
  });
});
