import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, sessionBody, uniqueRef } from '../helpers';

// The money rules under real concurrent requests on the real database: the invariant, not a timing.

let api: ReturnType<typeof apiClient>;
let merchantId: string;

beforeAll(async () => {
  const merchant = await createTestMerchant();
  merchantId = merchant.merchantId;
  api = apiClient(merchant.key);
});

describe('under concurrent requests', () => {
  it('20 creates with one Idempotency-Key make exactly one session', async () => {
    const body = sessionBody();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/v1/checkout-sessions', body, { idempotencyKey: `same-${body.order_reference}` }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 200) expect(res.headers.get('idempotent-replayed')).toBe('true');
      else if (res.status === 409) expect(res.body.error.code).toBe('idempotency_key_in_use');
      else expect(res.status).toBe(201);
    }
    const ids = new Set(answers.filter((res) => res.status < 300).map((res) => res.body.id));
    expect(ids.size).toBe(1);
    const client = await db();
    expect(await client.checkoutSession.count({ where: { merchantId, orderReference: body.order_reference } })).toBe(1);
  });

  it.each([
    ['payment link', '/v1/payment-links', (name: string) => ({ name, amount: 1200, currency: 'USD' })],
    [
      'webhook endpoint',
      '/v1/webhook-endpoints',
      (name: string) => ({ url: `https://shop.example.com/${name}`, events: ['*'] }),
    ],
  ])('10 creates of a %s with one Idempotency-Key make exactly one', async (_kind, path, bodyOf) => {
    const name = uniqueRef('one');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post(path, bodyOf(name), { idempotencyKey: name })),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of answers.filter((one) => one.status !== 201)) {
      expect([res.status, res.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    }
    expect(new Set(answers.map((res) => res.body.id)).size).toBe(1);
    const client = await db();
    const made =
      path === '/v1/payment-links'
        ? await client.paymentLink.count({ where: { merchantId, name } })
        : await client.webhookEndpoint.count({ where: { merchantId, url: { endsWith: name } } });
    expect(made).toBe(1);
  });

  it('10 expires of one session at once expire it once: one answer, one event; with one key, all replay it', async () => {
    const expireAll = (id: string, key: (i: number) => string) =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post(`/v1/checkout-sessions/${id}/expire`, undefined, { idempotencyKey: key(i) }),
        ),
      );
    const own = (await api.post('/v1/checkout-sessions', sessionBody())).body.id;
    const answers = await expireAll(own, (i) => `${own}-${i}`);
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((one) => one.status !== 200))
      expect([res.status, res.body.error.code]).toEqual([409, 'checkout_session_not_open']);
    const shared = (await api.post('/v1/checkout-sessions', sessionBody())).body.id;
    const replays = await expireAll(shared, () => `${shared}-one`);
    expect(replays.map((res) => res.status)).toEqual(replays.map(() => 200));
    expect(new Set(replays.map((res) => JSON.stringify(res.body))).size).toBe(1);
    const client = await db();
    for (const id of [own, shared]) {
      const events = await client.event.count({
        where: { merchantId, type: 'checkout_session.expired', data: { path: ['object', 'id'], equals: id } },
      });
      expect(events).toBe(1);
    }
  });

  it('10 cancels of one refund at once give its amount back once', async () => {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const payment = (await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, { payment_method: 'usdc' }))
      .body;
    const refund = (
      await api.post('/v1/refund-requests', {
        payment_id: payment.id,
        amount: 1000,
        crypto_refund_destination_note: 'verified by phone',
      })
    ).body;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post(`/v1/refund-requests/${refund.id}/cancel`)),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((one) => one.status !== 200))
      expect([res.status, res.body.error.code]).toEqual([409, 'refund_not_cancelable']);
    const client = await db();
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountReserved).toBe(0);
  });

  it('5 rotations of a secret at once with one key give one new secret; with their own keys, one each', async () => {
    const endpoint = (
      await api.post('/v1/webhook-endpoints', { url: 'https://shop.example.com/rotate', events: ['*'] })
    ).body;
    const rotate = (key: (i: number) => string) =>
      Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          api.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, { idempotencyKey: key(i) }),
        ),
      );
    const shared = await rotate(() => `${endpoint.id}-rotate`);
    expect(shared.map((res) => res.status)).toEqual(shared.map(() => 200));
    expect(new Set(shared.map((res) => res.body.secret)).size).toBe(1);
    const own = await rotate((i) => `${endpoint.id}-rotate-${i}`);
    expect(own.map((res) => res.status)).toEqual(own.map(() => 200));
    expect(new Set(own.map((res) => res.body.secret)).size).toBe(5);
  });

  it('30 refunds of 30 % of one payment make exactly 3', async () => {
    const session = (
      await api.post(
        '/v1/checkout-sessions',
        sessionBody({
          items: [{ name: 'Bike', quantity: 1, unit_amount: 10_000 }],
          shipping_amount: 0,
          tax_amount: 0,
          amount: 10_000,
        }),
      )
    ).body;
    const payment = (
      await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      })
    ).body;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.post('/v1/refund-requests', { payment_id: payment.id, amount: 3000 })),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    for (const res of answers.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('refund_exceeds_available');
    }
    const client = await db();
    const refunds = await client.refundRequest.findMany({ where: { paymentId: payment.id } });
    expect(refunds).toHaveLength(3);
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountReserved).toBe(9000);
  });

  it('10 pays of one session make one payment', async () => {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
          payment_method: 'card',
          card_number: '4242424242424242',
        }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('checkout_session_not_open');
    }
    const client = await db();
    expect(await client.payment.count({ where: { checkoutSessionId: session.id } })).toBe(1);
  });

  it('10 pays of one session with one Idempotency-Key make one payment and one answer, replayed', async () => {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post(
          `/v1/test-helpers/checkout-sessions/${session.id}/pay`,
          { payment_method: 'card', card_number: '4242424242424242' },
          { idempotencyKey: `pay-${session.id}` },
        ),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((res) => res.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    for (const res of answers) expect(res.body).toEqual(answers[0].body);
    const client = await db();
    expect(await client.payment.count({ where: { checkoutSessionId: session.id } })).toBe(1);
    const events = await client.event.findMany({ where: { type: 'payment.succeeded' } });
    expect(events.filter((event) => (event.data as any).object.id === answers[0].body.id)).toHaveLength(1);
  });

  it('two sessions of one order paid at once make one payment', async () => {
    for (let round = 0; round < 5; round++) {
      const order_reference = uniqueRef('race');
      const a = (await api.post('/v1/checkout-sessions', sessionBody({ order_reference }))).body;
      const b = (await api.post('/v1/checkout-sessions', sessionBody({ order_reference }))).body;
      const answers = await Promise.all(
        [a, b].map((session) =>
          api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, { payment_method: 'usdc' }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(answers.find((res) => res.status === 409)!.body.error.code).toBe('order_already_paid');
      const client = await db();
      expect(await client.payment.count({ where: { orderId: a.order_id, status: 'succeeded' } })).toBe(1);
    }
  });

  it('10 sessions of one new order made at once, each with its own key, name one order, and so do their replays', async () => {
    for (let round = 0; round < 3; round++) {
      const body = sessionBody({ order_reference: uniqueRef('new-order') });
      const keys = Array.from({ length: 10 }, (_, i) => `${body.order_reference}-${i}`);
      const send = () =>
        Promise.all(keys.map((idempotencyKey) => api.post('/v1/checkout-sessions', body, { idempotencyKey })));
      const answers = await send();
      expect(answers.map((res) => res.status)).toEqual(keys.map(() => 201));
      const orderIds = new Set(answers.map((res) => res.body.order_id));
      expect(orderIds.size).toBe(1);
      const replays = await send();
      expect(replays.map((res) => [res.status, res.body.order_id])).toEqual(keys.map(() => [200, [...orderIds][0]]));
      const client = await db();
      expect(await client.order.count({ where: { merchantId, reference: body.order_reference } })).toBe(1);
      expect(await client.checkoutSession.count({ where: { orderId: [...orderIds][0] } })).toBe(10);
    }
  });
});
