import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, sessionBody, uniqueRef } from '../helpers';

let api: ReturnType<typeof apiClient>;
let merchantId: string;

beforeAll(async () => {
  const merchant = await createTestMerchant({ hosts: ['shop.example.com', 'localhost:4000'] });
  merchantId = merchant.merchantId;
  api = apiClient(merchant.key);
});

describe('POST /v1/checkout-sessions', () => {
  it('creates an open session with its order, url and 30-minute expiry', async () => {
    const body = sessionBody();
    const res = await api.post('/v1/checkout-sessions', body);
    expect(res.status).toBe(201);
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    const session = res.body;
    expect(session).toMatchObject({
      object: 'checkout_session',
      environment: 'sandbox',
      status: 'open',
      payment_status: 'unpaid',
      order_reference: body.order_reference,
      currency: 'USD',
      amount: 3750,
      shipping_amount: 500,
      tax_amount: 250,
      items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
      payment_methods: ['card', 'usdc'],
      return_url: body.return_url,
      cancel_url: body.cancel_url,
      payment_id: null,
    });
    expect(session.id).toMatch(/^cs_[0-9A-Za-z]{24}$/);
    expect(session.order_id).toMatch(/^ord_[0-9A-Za-z]{24}$/);
    expect(session.url).toMatch(new RegExp(`/checkout/${session.id}$`));
    expect(session.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(30 * 60 * 1000);
  });

  it('defaults shipping and tax to 0 and methods to the approved ones serving the currency', async () => {
    const res = await api.post('/v1/checkout-sessions', {
      order_reference: uniqueRef(),
      currency: 'CAD',
      items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
      amount: 1200,
      return_url: 'http://localhost:4000/done',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      shipping_amount: 0,
      tax_amount: 0,
      cancel_url: null,
      payment_methods: ['card', 'interac'],
    });
  });

  it('matches approved hosts exactly and case-insensitively', async () => {
    const upper = await api.post(
      '/v1/checkout-sessions',
      sessionBody({ return_url: 'https://SHOP.Example.com/thanks' }),
    );
    expect(upper.status).toBe(201);
    for (const url of [
      'https://evil.shop.example.com/x',
      'https://shop.example.com:8443/x',
      'http://localhost:3000/x',
      'https://example.com/x',
    ]) {
      const res = await api.post('/v1/checkout-sessions', sessionBody({ return_url: url }));
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'url_not_approved',
        param: 'return_url',
      });
    }
  });

  const invalid: [string, Record<string, unknown>, number, string, string | undefined][] = [
    ['amount differs from the total', { amount: 3751 }, 400, 'amount_mismatch', 'amount'],
    [
      'cancel_url on another host',
      { cancel_url: 'https://other.example.com/cart' },
      400,
      'url_not_approved',
      'cancel_url',
    ],
    ['return_url not http(s)', { return_url: 'javascript:alert(1)' }, 400, 'parameter_invalid', 'return_url'],
    ['return_url relative', { return_url: '/thanks' }, 400, 'parameter_invalid', 'return_url'],
    ['return_url missing', { return_url: undefined }, 400, 'parameter_missing', 'return_url'],
    ['order_reference missing', { order_reference: undefined }, 400, 'parameter_missing', 'order_reference'],
    ['order_reference with a space', { order_reference: 'order 1' }, 400, 'parameter_invalid', 'order_reference'],
    [
      'order_reference of 65 characters',
      { order_reference: 'a'.repeat(65) },
      400,
      'parameter_invalid',
      'order_reference',
    ],
    ['currency lowercase', { currency: 'usd' }, 400, 'parameter_invalid', 'currency'],
    ['currency EUR', { currency: 'EUR' }, 400, 'parameter_invalid', 'currency'],
    ['no items', { items: [] }, 400, 'parameter_invalid', 'items'],
    [
      '101 items',
      { items: Array.from({ length: 101 }, () => ({ name: 'x', quantity: 1, unit_amount: 1 })), amount: 101 + 750 },
      400,
      'parameter_invalid',
      'items',
    ],
    [
      'item quantity 0',
      { items: [{ name: 'T', quantity: 0, unit_amount: 1 }] },
      400,
      'parameter_invalid',
      'items.0.quantity',
    ],
    [
      'item quantity 10 001',
      { items: [{ name: 'T', quantity: 10_001, unit_amount: 1 }] },
      400,
      'parameter_invalid',
      'items.0.quantity',
    ],
    [
      'item name blank',
      { items: [{ name: '   ', quantity: 1, unit_amount: 1 }] },
      400,
      'parameter_invalid',
      'items.0.name',
    ],
    ['item name missing', { items: [{ quantity: 1, unit_amount: 1 }] }, 400, 'parameter_missing', 'items.0.name'],
    [
      'unknown item field',
      { items: [{ name: 'T', quantity: 1, unit_amount: 1, sku: 'x' }] },
      400,
      'parameter_unknown',
      'items.0.sku',
    ],
    ['float amount', { amount: 37.5 }, 400, 'parameter_invalid', 'amount'],
    ['numeric string amount', { amount: '3750' }, 400, 'parameter_invalid', 'amount'],
    ['negative shipping', { shipping_amount: -1 }, 400, 'parameter_invalid', 'shipping_amount'],
    [
      'unit_amount above the limit',
      { items: [{ name: 'T', quantity: 1, unit_amount: 100_000_000 }] },
      400,
      'parameter_invalid',
      'items.0.unit_amount',
    ],
    ['amount above the limit', { amount: 100_000_000 }, 400, 'parameter_invalid', 'amount'],
    ['amount past 2^53', { amount: 2 ** 53 + 2 }, 400, 'parameter_invalid', 'amount'],
    [
      'total out of range',
      { items: [{ name: 'T', quantity: 10_000, unit_amount: 99_999_999 }], amount: 99_999_999 },
      400,
      'parameter_invalid',
      'amount',
    ],
    [
      'zero total',
      { items: [{ name: 'T', quantity: 1, unit_amount: 0 }], shipping_amount: 0, tax_amount: 0, amount: 0 },
      400,
      'parameter_invalid',
      'amount',
    ],
    ['unknown field', { status: 'complete' }, 400, 'parameter_unknown', 'status'],
    ['unknown payment method', { payment_methods: ['paypal'] }, 400, 'parameter_invalid', 'payment_methods.0'],
    ['repeated payment method', { payment_methods: ['card', 'card'] }, 400, 'parameter_invalid', 'payment_methods'],
    ['empty payment methods', { payment_methods: [] }, 400, 'parameter_invalid', 'payment_methods'],
    [
      'interac for USD',
      { payment_methods: ['card', 'interac'] },
      400,
      'payment_method_unavailable',
      'payment_methods.1',
    ],
    [
      'usdc for CAD',
      { currency: 'CAD', payment_methods: ['usdc'] },
      400,
      'payment_method_unavailable',
      'payment_methods.0',
    ],
  ];

  it.each(invalid)('refuses %s', async (_name, overrides, status, code, param) => {
    const res = await api.post('/v1/checkout-sessions', sessionBody(overrides));
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.request_id).toBe(res.headers.get('request-id'));
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('refuses a method the connection has not approved', async () => {
    const cardOnly = await createTestMerchant({ methods: ['card'] });
    const res = await apiClient(cardOnly.key).post('/v1/checkout-sessions', sessionBody({ payment_methods: ['usdc'] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'payment_method_not_approved', param: 'payment_methods.0' });
  });

  it('refuses a currency no approved method can take', async () => {
    const interacOnly = await createTestMerchant({ methods: ['interac'] });
    const res = await apiClient(interacOnly.key).post('/v1/checkout-sessions', sessionBody());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'payment_method_unavailable', param: 'payment_methods' });
  });

  it('gives an unpaid order several sessions, and refuses a paid one', async () => {
    const order_reference = uniqueRef();
    const first = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    const second = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    expect(second.status).toBe(201);
    expect(second.body.order_id).toBe(first.body.order_id);
    const paid = await api.post(`/v1/test-helpers/checkout-sessions/${first.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(paid.status).toBe(200);
    const third = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    expect(third.status).toBe(409);
    expect(third.body.error).toMatchObject({ type: 'invalid_request_error', code: 'order_already_paid' });
  });

  it('writes nothing when it refuses', async () => {
    const order_reference = uniqueRef();
    const res = await api.post('/v1/checkout-sessions', sessionBody({ order_reference, amount: 1 }));
    expect(res.status).toBe(400);
    const client = await db();
    expect(await client.order.count({ where: { merchantId, reference: order_reference } })).toBe(0);
    expect(await client.checkoutSession.count({ where: { merchantId, orderReference: order_reference } })).toBe(0);
  });
});

describe('GET /v1/checkout-sessions', () => {
  it('reads a session, and 404s one of another connection exactly like a missing one', async () => {
    const created = await api.post('/v1/checkout-sessions', sessionBody());
    const read = await api.get(`/v1/checkout-sessions/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const other = apiClient((await createTestMerchant()).key);
    const foreign = await other.get(`/v1/checkout-sessions/${created.body.id}`);
    const missing = await other.get('/v1/checkout-sessions/cs_000000000000000000000000');
    const malformed = await other.get('/v1/checkout-sessions/not-an-id');
    for (const res of [foreign, missing, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'id' });
    }
  });

  it('shows a session past expires_at as expired before any sweep', async () => {
    const created = await api.post('/v1/checkout-sessions', sessionBody());
    const client = await db();
    // the server's worker also sweeps; disable that race by moving expiry and reading at once
    await client.checkoutSession.update({
      where: { id: created.body.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const read = await api.get(`/v1/checkout-sessions/${created.body.id}`);
    expect(read.body.status).toBe('expired');
    const pay = await api.post(`/v1/test-helpers/checkout-sessions/${created.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(pay.status).toBe(409);
    expect(pay.body.error.code).toBe('checkout_session_not_open');
  });

  it('lists newest first with limit, starting_after and filters', async () => {
    const own = await createTestMerchant();
    const list = apiClient(own.key);
    const ref = uniqueRef();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await list.post('/v1/checkout-sessions', sessionBody(i < 3 ? { order_reference: ref } : {}))).body.id);
    const page1 = await list.get('/v1/checkout-sessions?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data.map((s: { id: string }) => s.id)).toEqual([ids[4], ids[3]]);
    const page2 = await list.get(`/v1/checkout-sessions?limit=2&starting_after=${ids[3]}`);
    expect(page2.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const page3 = await list.get(`/v1/checkout-sessions?limit=2&starting_after=${ids[1]}`);
    expect(page3.body).toMatchObject({ has_more: false });
    expect(page3.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    const byRef = await list.get(`/v1/checkout-sessions?order_reference=${ref}`);
    expect(byRef.body.data).toHaveLength(3);
    const byStatus = await list.get('/v1/checkout-sessions?status=complete');
    expect(byStatus.body.data).toHaveLength(0);
    const defaultLimit = await list.get('/v1/checkout-sessions');
    expect(defaultLimit.body.data).toHaveLength(5);
  });

  it.each([
    ['limit=0', 'parameter_invalid', 'limit', 400],
    ['limit=101', 'parameter_invalid', 'limit', 400],
    ['limit=abc', 'parameter_invalid', 'limit', 400],
    ['status=paid', 'parameter_invalid', 'status', 400],
    ['colour=red', 'parameter_unknown', 'colour', 400],
    ['starting_after=cs_000000000000000000000000', 'resource_missing', 'starting_after', 404],
  ])('refuses ?%s', async (query, code, param, status) => {
    const res = await api.get(`/v1/checkout-sessions?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
  });
});

describe('POST /v1/checkout-sessions/{id}/expire', () => {
  it('expires an open session once, with an empty body and no Content-Type', async () => {
    const created = await api.post('/v1/checkout-sessions', sessionBody());
    const expired = await api.request('POST', `/v1/checkout-sessions/${created.body.id}/expire`, {
      idempotencyKey: null,
    });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ id: created.body.id, status: 'expired', payment_status: 'unpaid' });
    const again = await api.request('POST', `/v1/checkout-sessions/${created.body.id}/expire`, {
      idempotencyKey: null,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('checkout_session_not_open');
    const client = await db();
    expect(
      await client.event.count({
        where: { type: 'checkout_session.expired', data: { path: ['object', 'id'], equals: created.body.id } },
      }),
    ).toBe(1);
  });

  it('refuses to expire a paid session', async () => {
    const created = await api.post('/v1/checkout-sessions', sessionBody());
    await api.post(`/v1/test-helpers/checkout-sessions/${created.body.id}/pay`, { payment_method: 'usdc' });
    const res = await api.post(`/v1/checkout-sessions/${created.body.id}/expire`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('checkout_session_not_open');
  });

  it('honours an Idempotency-Key when sent, and 404s an unknown session', async () => {
    const created = await api.post('/v1/checkout-sessions', sessionBody());
    const first = await api.post(
      `/v1/checkout-sessions/${created.body.id}/expire`,
      {},
      { idempotencyKey: 'expire-once' },
    );
    const replay = await api.post(
      `/v1/checkout-sessions/${created.body.id}/expire`,
      {},
      { idempotencyKey: 'expire-once' },
    );
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const missing = await api.post('/v1/checkout-sessions/cs_000000000000000000000000/expire', {});
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
    const unknownField = await api.post(`/v1/checkout-sessions/${created.body.id}/expire`, { force: true });
    expect(unknownField.body.error).toMatchObject({ code: 'parameter_unknown', param: 'force' });
  });
});
