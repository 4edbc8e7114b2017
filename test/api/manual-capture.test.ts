import { describe, expect, it } from 'vitest';
import { SCOPES } from '@/lib/api-keys/scopes';
import { db } from '@/lib/db';
import type { PaymentMethod } from '@/lib/generated/prisma/client';
import { apiClient, createTestMerchant, eventually, sessionBody, uniqueRef } from '../helpers';

// Authorize now, capture later, over HTTP: a manual-capture session's card payment waits in requires_capture,
// holding its order, until it is captured (once, in full or in part), canceled, or canceled by the worker after
// 7 days on the connection's clock. The races between those run on two processes in test/scale/scale.test.ts.

type Client = ReturnType<typeof apiClient>;
const CARD = { payment_method: 'card', card_number: '4242424242424242' } as const;
const DAY = 24 * 60 * 60;

async function newMerchant(options: Parameters<typeof createTestMerchant>[0] = {}) {
  const merchant = await createTestMerchant(options);
  return { ...merchant, api: apiClient(merchant.key) };
}

async function authorize(api: Client, overrides: Record<string, unknown> = {}) {
  const session = await api.post('/v1/checkout-sessions', sessionBody({ capture_method: 'manual', ...overrides }));
  expect(session.status).toBe(201);
  const paid = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, CARD);
  expect(paid.status).toBe(200);
  return { session: session.body, payment: paid.body };
}

/** The types of the merchant's events about `objectId`, oldest first. */
async function eventTypesAbout(merchantId: string, objectId: string): Promise<string[]> {
  const client = await db();
  const events = await client.event.findMany({ where: { merchantId }, orderBy: { seq: 'asc' } });
  return events
    .filter((event) => (event.data as { object: { id: string } }).object.id === objectId)
    .map((event) => event.type);
}

describe('capture_method on checkout sessions', () => {
  it('is automatic by default, and a manual session offers cards only', async () => {
    const { api } = await newMerchant();
    const automatic = await api.post('/v1/checkout-sessions', sessionBody());
    expect(automatic.body).toMatchObject({ capture_method: 'automatic' });
    const manual = await api.post('/v1/checkout-sessions', sessionBody({ capture_method: 'manual' }));
    expect(manual.status).toBe(201);
    expect(manual.body).toMatchObject({ capture_method: 'manual', payment_methods: ['card'] });
    expect((await api.get(`/v1/checkout-sessions/${manual.body.id}`)).body.capture_method).toBe('manual');
  });

  it.each([
    ['another method named', undefined, { payment_methods: ['card', 'usdc'] }],
    ['a merchant without cards', ['usdc', 'interac'] as PaymentMethod[], {}],
  ])('refuses manual capture with %s: parameter_invalid on capture_method, nothing made', async (_, methods, body) => {
    const { api, merchantId } = await newMerchant({ methods });
    const order_reference = uniqueRef('manual');
    const refused = await api.post(
      '/v1/checkout-sessions',
      sessionBody({ order_reference, capture_method: 'manual', ...body }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'capture_method' });
    expect(await (await db()).checkoutSession.count({ where: { merchantId, orderReference: order_reference } })).toBe(
      0,
    );
  });

  it('refuses a capture method it does not know, and payment links take none', async () => {
    const { api } = await newMerchant();
    const unknown = await api.post('/v1/checkout-sessions', sessionBody({ capture_method: 'later' }));
    expect([unknown.status, unknown.body.error.code, unknown.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'capture_method',
    ]);
    const link = await api.post('/v1/payment-links', {
      name: 'Poster',
      amount: 1200,
      currency: 'USD',
      capture_method: 'manual',
    });
    expect([link.status, link.body.error.code, link.body.error.param]).toEqual([
      400,
      'parameter_unknown',
      'capture_method',
    ]);
  });
});

describe('an authorization', () => {
  it('is a payment in requires_capture: the session completes, payment.authorized is sent, nothing is refundable', async () => {
    const { api, merchantId } = await newMerchant();
    const { session, payment } = await authorize(api);
    expect(payment).toMatchObject({
      status: 'requires_capture',
      capture_method: 'manual',
      amount: 3750,
      amount_capturable: 3750,
      amount_captured: 0,
      amount_refundable: 0,
      canceled_at: null,
      cancellation_reason: null,
    });
    expect((await api.get(`/v1/payments/${payment.id}`)).body).toEqual(payment);
    expect((await api.get(`/v1/checkout-sessions/${session.id}`)).body).toMatchObject({
      status: 'complete',
      payment_id: payment.id,
    });
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized']);
    expect(await eventTypesAbout(merchantId, session.id)).toEqual(['checkout_session.completed']);
    const refund = await api.post('/v1/refund-requests', { payment_id: payment.id, amount: 100 });
    expect([refund.status, refund.body.error.code]).toEqual([409, 'payment_not_refundable']);
  });

  it('holds its order: no other session of it can be paid or made until the authorization is canceled', async () => {
    const { api } = await newMerchant();
    const order_reference = uniqueRef('held');
    const other = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    const { payment } = await authorize(api, { order_reference });
    const paid = await api.post(`/v1/test-helpers/checkout-sessions/${other.body.id}/pay`, CARD);
    expect([paid.status, paid.body.error.code]).toEqual([409, 'order_already_paid']);
    const made = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    expect([made.status, made.body.error.code]).toEqual([409, 'order_already_paid']);

    expect((await api.post(`/v1/payments/${payment.id}/cancel`, undefined, { idempotencyKey: null })).status).toBe(200);
    const again = await api.post('/v1/checkout-sessions', sessionBody({ order_reference }));
    expect(again.status).toBe(201);
    const repaid = await api.post(`/v1/test-helpers/checkout-sessions/${again.body.id}/pay`, CARD);
    expect(repaid.body).toMatchObject({ status: 'succeeded', amount_captured: 3750, capture_method: 'automatic' });
  });
});

describe('POST /v1/payments/{id}/capture', () => {
  it('captures part: succeeded, the rest released, payment.succeeded; refunds reach what was captured', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const key = uniqueRef('capture');
    const captured = await api.post(
      `/v1/payments/${payment.id}/capture`,
      { amount_to_capture: 1000 },
      { idempotencyKey: key },
    );
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({
      id: payment.id,
      status: 'succeeded',
      amount: 3750,
      amount_capturable: 0,
      amount_captured: 1000,
      amount_refundable: 1000,
    });
    expect((await api.get(`/v1/payments/${payment.id}`)).body).toEqual(captured.body);
    const replay = await api.post(
      `/v1/payments/${payment.id}/capture`,
      { amount_to_capture: 1000 },
      { idempotencyKey: key },
    );
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(captured.body);
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized', 'payment.succeeded']);

    const again = await api.post(`/v1/payments/${payment.id}/capture`, {});
    expect([again.status, again.body.error.code]).toEqual([409, 'payment_not_capturable']);
    const tooMuch = await api.post('/v1/refund-requests', { payment_id: payment.id, amount: 1001 });
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'refund_exceeds_available']);
    expect((await api.post('/v1/refund-requests', { payment_id: payment.id, amount: 1000 })).status).toBe(201);
  });

  it('captures all when no amount is given, with an empty body too', async () => {
    const { api } = await newMerchant();
    const { payment } = await authorize(api);
    const captured = await api.request('POST', `/v1/payments/${payment.id}/capture`);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'succeeded', amount_captured: 3750, amount_refundable: 3750 });
  });

  it('needs an Idempotency-Key, the scope payments:write, and an amount from 1 to amount_capturable', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const path = `/v1/payments/${payment.id}/capture`;
    const keyless = await api.post(path, {}, { idempotencyKey: null });
    expect([keyless.status, keyless.body.error.code]).toEqual([400, 'idempotency_key_missing']);
    for (const amount_to_capture of [0, -5, 1.5, '100', 3751]) {
      const refused = await api.post(path, { amount_to_capture });
      expect([refused.status, refused.body.error.code, refused.body.error.param]).toEqual([
        400,
        'parameter_invalid',
        'amount_to_capture',
      ]);
    }
    const unknownField = await api.post(path, { amount: 100 });
    expect([unknownField.status, unknownField.body.error.code]).toEqual([400, 'parameter_unknown']);
    const readOnly = apiClient(
      (await createTestMerchant({ scopes: SCOPES.filter((scope) => scope !== 'payments:write') })).key,
    );
    const forbidden = await readOnly.post(path, {});
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect(forbidden.body.error.message).toContain('payments:write');
    const missing = await api.post('/v1/payments/pay_000000000000000000000000/capture', {});
    expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
    expect((await api.get(`/v1/payments/${payment.id}`)).body.status).toBe('requires_capture');
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized']);
  });

  it('refuses payments that are not authorizations: 409 payment_not_capturable / payment_not_cancelable', async () => {
    const { api } = await newMerchant();
    const session = await api.post('/v1/checkout-sessions', sessionBody());
    const automatic = (await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, CARD)).body;
    const capture = await api.post(`/v1/payments/${automatic.id}/capture`, {});
    expect([capture.status, capture.body.error.code]).toEqual([409, 'payment_not_capturable']);
    const cancel = await api.post(`/v1/payments/${automatic.id}/cancel`);
    expect([cancel.status, cancel.body.error.code]).toEqual([409, 'payment_not_cancelable']);
    const failedSession = await api.post('/v1/checkout-sessions', sessionBody({ capture_method: 'manual' }));
    const failed = await api.post(`/v1/test-helpers/checkout-sessions/${failedSession.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    expect(failed.body).toMatchObject({ status: 'failed', amount_captured: 0, amount_capturable: 0 });
    expect((await api.post(`/v1/payments/${failed.body.id}/capture`, {})).body.error.code).toBe(
      'payment_not_capturable',
    );
  });
});

describe('POST /v1/payments/{id}/cancel', () => {
  it('cancels an authorization: canceled_at, requested_by_merchant, payment.canceled; then neither again', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const canceled = await api.post(`/v1/payments/${payment.id}/cancel`, undefined, { idempotencyKey: null });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested_by_merchant',
      canceled_at: expect.stringMatching(/Z$/),
      amount_capturable: 0,
      amount_captured: 0,
    });
    expect((await api.get(`/v1/payments/${payment.id}`)).body).toEqual(canceled.body);
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized', 'payment.canceled']);
    const twice = await api.post(`/v1/payments/${payment.id}/cancel`);
    expect([twice.status, twice.body.error.code]).toEqual([409, 'payment_not_cancelable']);
    const capture = await api.post(`/v1/payments/${payment.id}/capture`, {});
    expect([capture.status, capture.body.error.code]).toEqual([409, 'payment_not_capturable']);
  });
});

describe('an authorization 7 days old on the connection’s clock', () => {
  it('can no longer be captured, and the worker cancels it as expired with payment.canceled', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const kept = (await authorize(api)).payment;
    expect((await api.post('/v1/test-helpers/clock/advance', { seconds: 6 * DAY })).status).toBe(200);
    const inTime = await api.post(`/v1/payments/${kept.id}/capture`, {});
    expect(inTime.body.status).toBe('succeeded');

    expect((await api.post('/v1/test-helpers/clock/advance', { seconds: DAY })).status).toBe(200);
    const late = await api.post(`/v1/payments/${payment.id}/capture`, {});
    expect([late.status, late.body.error.code]).toEqual([409, 'payment_not_capturable']);
    const swept = await eventually(
      async () => (await api.get(`/v1/payments/${payment.id}`)).body,
      (body) => body.status === 'canceled',
    );
    expect(swept).toMatchObject({ status: 'canceled', cancellation_reason: 'expired', amount_capturable: 0 });
    expect(Date.parse(swept.canceled_at) - Date.parse(payment.created_at)).toBeGreaterThanOrEqual(7 * DAY * 1000);
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized', 'payment.canceled']);
    expect((await api.get(`/v1/payments/${kept.id}`)).body.status).toBe('succeeded');
  });
});

describe('under concurrent requests', () => {
  it("captures and cancels 16 of one merchant's authorizations at once, every one answered (Home's figures deadlocked on them)", async () => {
    const { api } = await newMerchant();
    const payments = [];
    for (let i = 0; i < 16; i++) payments.push((await authorize(api)).payment);
    const answers = await Promise.all(
      payments.map((payment, i) => api.post(`/v1/payments/${payment.id}/${i % 2 === 0 ? 'capture' : 'cancel'}`, {})),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
  });

  it('10 captures of one authorization with different keys capture it once, with one event', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post(`/v1/payments/${payment.id}/capture`, { amount_to_capture: 100 + i }),
      ),
    );
    const won = answers.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    for (const res of answers.filter((one) => one.status !== 200))
      expect([res.status, res.body.error.code]).toEqual([409, 'payment_not_capturable']);
    expect((await api.get(`/v1/payments/${payment.id}`)).body.amount_captured).toBe(won[0].body.amount_captured);
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized', 'payment.succeeded']);
  });

  it('captures and cancels of one authorization at once: one of them wins, the others are refused', async () => {
    const { api, merchantId } = await newMerchant();
    const { payment } = await authorize(api);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 ? api.post(`/v1/payments/${payment.id}/capture`, {}) : api.post(`/v1/payments/${payment.id}/cancel`),
      ),
    );
    const won = answers.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    for (const res of answers.filter((one) => one.status !== 200)) {
      expect(res.status).toBe(409);
      expect(['payment_not_capturable', 'payment_not_cancelable']).toContain(res.body.error.code);
    }
    const final = (await api.get(`/v1/payments/${payment.id}`)).body;
    expect(final).toEqual(won[0].body);
    const settled = final.status === 'succeeded' ? 'payment.succeeded' : 'payment.canceled';
    expect(await eventTypesAbout(merchantId, payment.id)).toEqual(['payment.authorized', settled]);
  });
});
