import { describe, expect, it } from 'vitest';
import { getApiRequestLog, listApiRequestLogs } from '@/lib/api-logs/service';
import { CUT_MARK, MAX_LOGGED_BODY_BYTES, REDACTED } from '@/lib/api-logs/redact';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, eventually, sessionBody } from '../helpers';
import { contextOf } from '@/test/context';

describe('the /v1 request log', () => {
  it('records each authenticated request for its merchant, never its key', async () => {
    const merchant = await createTestMerchant();
    const api = apiClient(merchant.key);
    const created = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'log-me' });
    const refused = await api.get('/v1/payments/pay_000000000000000000000000');
    await apiClient().get('/v1/payments'); // unauthenticated: belongs to no merchant

    const client = await db();
    const logs = await eventually(
      () => listApiRequestLogs(contextOf(client, merchant.merchantId), { limit: 10 }),
      (page) => page.data.length >= 2,
    );
    expect(logs.data).toHaveLength(2);
    const [second, first] = logs.data;
    expect(first).toMatchObject({
      method: 'POST',
      path: '/v1/checkout-sessions',
      status: 201,
      idempotencyKey: 'log-me',
      requestId: created.headers.get('request-id'),
    });
    expect(second).toMatchObject({
      method: 'GET',
      path: '/v1/payments/pay_000000000000000000000000',
      status: 404,
      idempotencyKey: null,
      requestId: refused.headers.get('request-id'),
    });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(logs.data, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(merchant.key);
  });
});

describe('secrets outside bodies in the request log', () => {
  it('redacts keys, signing secrets and card numbers in the path and the Idempotency-Key, as Logs reads them', async () => {
    const merchant = await createTestMerchant();
    const api = apiClient(merchant.key);
    const card = '4242424242424242';
    const fullWidthCard = '４２４２４２４２４２４２４２４２';
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    await api.get(`/v1/payments/${merchant.key}?status=${card}`);
    await api.get('/v1/payments/4242%204242%204242%204242');
    await api.get(`/v1/payments/${encodeURIComponent(fullWidthCard)}`);
    const created = await api.post('/v1/checkout-sessions', sessionBody(), {
      idempotencyKey: `order-4242.4242.4242.4242-${merchant.key}-${secret}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const client = await db();
    const { data } = await eventually(
      () => listApiRequestLogs(contextOf(client, merchant.merchantId), { limit: 10 }),
      (page) => page.data.length >= 4,
    );
    const rows = await Promise.all(data.map((row) => getApiRequestLog(contextOf(client, merchant.merchantId), row.id)));
    expect(rows.map((row) => [row!.path, row!.idempotencyKey])).toEqual([
      ['/v1/checkout-sessions', 'order-[redacted card ••••4242]-sk_sandbox_[redacted]-whsec_[redacted]'],
      ['/v1/payments/[redacted card ••••4242]', null],
      ['/v1/payments/[redacted card ••••4242]', null],
      ['/v1/payments/sk_sandbox_[redacted]', null], // the query is not kept
    ]);
    const everything = JSON.stringify([data, rows], (_key, value) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    for (const leaked of [merchant.key, secret, card, fullWidthCard, '4242.4242', '4242%20', '%EF%BC'])
      expect(everything).not.toContain(leaked);
  });
});

describe('bodies in the request log', () => {
  it('keeps what was sent and answered with every secret redacted: card numbers and codes, signing secrets, keys in text', async () => {
    const merchant = await createTestMerchant();
    const api = apiClient(merchant.key);
    const session = await api.post(
      '/v1/checkout-sessions',
      sessionBody({ items: [{ name: `Gift card for ${merchant.key}`, quantity: 1, unit_amount: 2500 }], amount: 3250 }),
    );
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const endpoint = await api.post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:4000/in', events: ['*'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);

    const client = await db();
    const { data } = await eventually(
      () => listApiRequestLogs(contextOf(client, merchant.merchantId), { limit: 10 }),
      (page) => page.data.length >= 3,
    );
    const [hook, pay, create] = await Promise.all(
      data.map((row) => getApiRequestLog(contextOf(client, merchant.merchantId), row.id)),
    );

    // what was sent reads as it was sent, with its secrets replaced
    expect(JSON.parse(create!.requestBody!).items[0].name).toBe('Gift card for sk_sandbox_[redacted]');
    expect(JSON.parse(create!.responseBody!)).toMatchObject({ id: session.body.id, amount: 3250 });
    expect(JSON.parse(pay!.requestBody!)).toEqual({
      payment_method: 'card',
      card_number: REDACTED,
      exp_month: 12,
      exp_year: 2034,
      cvc: REDACTED,
    });
    expect(JSON.parse(hook!.responseBody!)).toMatchObject({
      id: endpoint.body.id,
      url: 'http://127.0.0.1:4000/in',
      secret: REDACTED,
    });
    const everything = JSON.stringify([hook, pay, create], (_key, value) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    for (const secret of [merchant.key, endpoint.body.secret, '4242 4242 4242 4242', '"123"'])
      expect(everything).not.toContain(secret);

    // the list leaves the bodies out; the filters narrow it
    expect(data[0]).not.toHaveProperty('requestBody');
    const posts = await listApiRequestLogs(contextOf(client, merchant.merchantId), {
      limit: 10,
      filters: { method: 'POST', pathPrefix: '/v1/test-helpers/' },
    });
    expect(posts.data.map((row) => row.path)).toEqual([`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`]);
    const created = await listApiRequestLogs(contextOf(client, merchant.merchantId), {
      limit: 10,
      filters: { status: { code: 201 } },
    });
    expect(created.data.map((row) => row.path)).toEqual(['/v1/webhook-endpoints', '/v1/checkout-sessions']);
    const refused = await listApiRequestLogs(contextOf(client, merchant.merchantId), {
      limit: 10,
      filters: { status: { hundreds: 4 } },
    });
    expect(refused.data).toEqual([]);
    // a prefix is matched as typed: % and _ are not wildcards
    expect(
      (
        await listApiRequestLogs(contextOf(client, merchant.merchantId), {
          limit: 10,
          filters: { pathPrefix: '/v1/%' },
        })
      ).data,
    ).toEqual([]);
    expect(
      (
        await listApiRequestLogs(contextOf(client, merchant.merchantId), {
          limit: 10,
          filters: { pathPrefix: '/v1/webhook_endpoints' },
        })
      ).data,
    ).toEqual([]);
    expect(
      (
        await listApiRequestLogs(contextOf(client, merchant.merchantId), {
          limit: 10,
          filters: { pathPrefix: '/v1/webhook-endpoints' },
        })
      ).data,
    ).toHaveLength(1);
  });

  it('cuts a body past 16 KB at that size, and says so', async () => {
    const merchant = await createTestMerchant();
    const api = apiClient(merchant.key);
    // 100 items of 200 characters: about 24 KB sent, and as much answered
    const items = Array.from({ length: 100 }, (_, index) => ({
      name: `${String(index).padStart(3, '0')} ${'long item name '.repeat(14)}`.slice(0, 200),
      quantity: 1,
      unit_amount: 100,
    }));
    const session = await api.post('/v1/checkout-sessions', sessionBody({ items, amount: 10_750 }));
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const client = await db();
    const { data } = await eventually(
      () => listApiRequestLogs(contextOf(client, merchant.merchantId), { limit: 1 }),
      (page) => page.data.length === 1,
    );
    const log = await getApiRequestLog(contextOf(client, merchant.merchantId), data[0].id);
    for (const body of [log!.requestBody!, log!.responseBody!]) {
      expect(body.endsWith(CUT_MARK)).toBe(true);
      expect(Buffer.byteLength(body.slice(0, -CUT_MARK.length))).toBe(MAX_LOGGED_BODY_BYTES);
    }
    expect(log!.requestBody!.startsWith('{"order_reference":')).toBe(true);
  });
});
