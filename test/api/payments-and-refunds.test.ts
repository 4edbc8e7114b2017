import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { apiClient, createTestMerchant, eventually, sessionBody, uniqueRef } from '../helpers';

let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  api = apiClient((await createTestMerchant()).key);
});

async function paidSession(
  pay: Record<string, unknown> = { payment_method: 'card', card_number: '4242 4242 4242 4242' },
  overrides: Record<string, unknown> = {},
) {
  const session = (await api.post('/v1/checkout-sessions', sessionBody(overrides))).body;
  const payment = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, pay);
  return { session, payment };
}

describe('POST /v1/test-helpers/checkout-sessions/{id}/pay', () => {
  it('pays by card: the session completes, the payment keeps only brand and last4', async () => {
    const { session, payment } = await paidSession({
      payment_method: 'card',
      card_number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2099,
      cvc: '123',
    });
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({
      object: 'payment',
      status: 'succeeded',
      amount: 3750,
      currency: 'USD',
      payment_method: 'card',
      payment_method_details: { card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 } },
      failure_code: null,
      checkout_session_id: session.id,
      order_id: session.order_id,
      order_reference: session.order_reference,
      amount_refunded: 0,
      amount_refundable: 3750,
    });
    expect(payment.body.id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(JSON.stringify(payment.body)).not.toContain('4242424242424242');
    const read = await api.get(`/v1/checkout-sessions/${session.id}`);
    expect(read.body).toMatchObject({ status: 'complete', payment_status: 'paid', payment_id: payment.body.id });
    expect((await api.get(`/v1/payments/${payment.body.id}`)).body).toEqual(payment.body);
  });

  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ])('records a decline of %s as a failed payment and leaves the session open', async (card_number, failure_code) => {
    const { session, payment } = await paidSession({ payment_method: 'card', card_number });
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({ status: 'failed', failure_code, amount_refundable: 0 });
    expect((await api.get(`/v1/checkout-sessions/${session.id}`)).body.status).toBe('open');
    const retry = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(retry.body.status).toBe('succeeded');
  });

  it('pays by USDC with a sandbox wallet and transaction hash', async () => {
    const { payment } = await paidSession({ payment_method: 'usdc' });
    expect(payment.body.payment_method_details.usdc).toMatchObject({
      network: expect.any(String),
      payer_address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });

  it('pays by Interac when approved, fails when declined', async () => {
    const cad = { currency: 'CAD' };
    const approved = await paidSession(
      { payment_method: 'interac', outcome: 'approve', email: 'jane@example.com', bank: 'Sandbox Credit Union' },
      cad,
    );
    expect(approved.payment.body).toMatchObject({
      status: 'succeeded',
      payment_method_details: { interac: { email_masked: 'j•••@example.com', bank: 'Sandbox Credit Union' } },
    });
    const declined = await paidSession({ payment_method: 'interac', outcome: 'decline' }, cad);
    expect(declined.payment.body).toMatchObject({ status: 'failed', failure_code: 'interac_declined' });
  });

  it.each([
    ['no method', {}, 400, 'parameter_missing', 'payment_method'],
    ['an unknown method', { payment_method: 'paypal' }, 400, 'parameter_invalid', 'payment_method'],
    [
      'a card failing Luhn',
      { payment_method: 'card', card_number: '4242424242424241' },
      400,
      'parameter_invalid',
      'card_number',
    ],
    [
      'a card with letters',
      { payment_method: 'card', card_number: '4242abcd42424242' },
      400,
      'parameter_invalid',
      'card_number',
    ],
    ['no card number', { payment_method: 'card' }, 400, 'parameter_missing', 'card_number'],
    [
      'an expired card',
      { payment_method: 'card', card_number: '4242424242424242', exp_month: 1, exp_year: 2020 },
      400,
      'parameter_invalid',
      'exp_year',
    ],
    ['interac without outcome', { payment_method: 'interac' }, 400, 'parameter_missing', 'outcome'],
    [
      'a field of another method',
      { payment_method: 'usdc', card_number: '4242424242424242' },
      400,
      'parameter_unknown',
      'card_number',
    ],
    [
      'a method the session does not offer',
      { payment_method: 'interac', outcome: 'approve' },
      400,
      'payment_method_not_offered',
      'payment_method',
    ],
  ])('refuses %s', async (_name, body, status, code, param) => {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const res = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
    const client = await db();
    expect(await client.payment.count({ where: { checkoutSessionId: session.id } })).toBe(0);
  });

  it.each([
    ['card', { payment_method: 'card', card_number: '4242424242424242', exp_month: 1, exp_year: 2099 }],
    ['USDC', { payment_method: 'usdc' }],
    [
      'Interac',
      { payment_method: 'interac', outcome: 'approve', email: 'ana@example.com', bank: 'Sandbox Credit Union' },
    ],
  ])('answers a %s payment exactly as a later GET of it reads, key order included', async (_method, pay) => {
    const { payment } = await paidSession(pay, pay.payment_method === 'interac' ? { currency: 'CAD' } : {});
    expect(payment.status).toBe(200);
    const read = await api.get(`/v1/payments/${payment.body.id}`);
    expect(JSON.stringify(payment.body)).toBe(JSON.stringify(read.body));
  });

  it('says an expiry month of 13 is not a month', async () => {
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const res = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
      exp_month: 13,
      exp_year: 2099,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'exp_month',
      message: 'Invalid exp_month: must be a month from 1 to 12',
    });
  });

  it('refuses to pay a complete, expired or missing session', async () => {
    const { session } = await paidSession();
    const again = await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, { payment_method: 'usdc' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('checkout_session_not_open');
    const open = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    await api.post(`/v1/checkout-sessions/${open.id}/expire`, {});
    const expired = await api.post(`/v1/test-helpers/checkout-sessions/${open.id}/pay`, { payment_method: 'usdc' });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('checkout_session_not_open');
    const missing = await api.post('/v1/test-helpers/checkout-sessions/cs_000000000000000000000000/pay', {
      payment_method: 'usdc',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
  });

  it('refuses to pay a second session of a paid order', async () => {
    const order_reference = uniqueRef();
    const first = (await api.post('/v1/checkout-sessions', sessionBody({ order_reference }))).body;
    const second = (await api.post('/v1/checkout-sessions', sessionBody({ order_reference }))).body;
    await api.post(`/v1/test-helpers/checkout-sessions/${first.id}/pay`, { payment_method: 'usdc' });
    const res = await api.post(`/v1/test-helpers/checkout-sessions/${second.id}/pay`, { payment_method: 'usdc' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('order_already_paid');
  });
});

describe('GET /v1/payments', () => {
  it('lists and filters payments', async () => {
    const own = apiClient((await createTestMerchant()).key);
    const ref = uniqueRef();
    const s1 = (await own.post('/v1/checkout-sessions', sessionBody({ order_reference: ref }))).body;
    await own.post(`/v1/test-helpers/checkout-sessions/${s1.id}/pay`, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    await own.post(`/v1/test-helpers/checkout-sessions/${s1.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    const all = await own.get('/v1/payments');
    expect(all.body.data.map((p: { status: string }) => p.status)).toEqual(['succeeded', 'failed']);
    expect((await own.get('/v1/payments?status=failed')).body.data).toHaveLength(1);
    expect((await own.get(`/v1/payments?order_reference=${ref}`)).body.data).toHaveLength(2);
    expect((await own.get('/v1/payments?order_reference=nope')).body.data).toHaveLength(0);
  });
});

describe('POST /v1/refund-requests', () => {
  it('creates a requested refund that the worker completes, and counts it refunded', async () => {
    const { payment } = await paidSession();
    const res = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 1000, reason: 'damaged' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'refund_request',
      payment_id: payment.body.id,
      amount: 1000,
      currency: 'USD',
      status: 'requested',
      reason: 'damaged',
      failure_reason: null,
    });
    expect(res.body.id).toMatch(/^rr_[0-9A-Za-z]{24}$/);
    expect(res.body).not.toHaveProperty('crypto_refund_destination_note');
    expect((await api.get(`/v1/payments/${payment.body.id}`)).body).toMatchObject({
      amount_refunded: 0,
      amount_refundable: 2750,
    });
    const done = await eventually(
      () => api.get(`/v1/refund-requests/${res.body.id}`),
      (r) => r.body.status === 'completed',
    );
    expect(done.body.status).toBe('completed');
    expect((await api.get(`/v1/payments/${payment.body.id}`)).body).toMatchObject({
      amount_refunded: 1000,
      amount_refundable: 2750,
    });
  });

  it('fails refunds of payments made with 4000 0000 0000 5126, freeing the amount', async () => {
    const { payment } = await paidSession({ payment_method: 'card', card_number: '4000000000005126' });
    const refund = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 3750 });
    const failed = await eventually(
      () => api.get(`/v1/refund-requests/${refund.body.id}`),
      (r) => r.body.status === 'failed',
    );
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: expect.any(String) });
    expect((await api.get(`/v1/payments/${payment.body.id}`)).body).toMatchObject({
      amount_refunded: 0,
      amount_refundable: 3750,
    });
  });

  it('refuses more than is left, saying what is available', async () => {
    const { payment } = await paidSession();
    expect((await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 3000 })).status).toBe(201);
    const res = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 751 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'refund_exceeds_available', param: 'amount' });
    expect(res.body.error.message).toContain('750');
    expect((await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 750 })).status).toBe(201);
  });

  it('requires the destination note for USDC payments, and refuses it for others', async () => {
    const usdc = await paidSession({ payment_method: 'usdc' });
    const missing = await api.post('/v1/refund-requests', { payment_id: usdc.payment.body.id, amount: 100 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'crypto_refund_destination_note' });
    const note = 'Customer signed a message from their own wallet 0xabc; verified by support ticket 991';
    const ok = await api.post('/v1/refund-requests', {
      payment_id: usdc.payment.body.id,
      amount: 100,
      crypto_refund_destination_note: note,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.crypto_refund_destination_note).toBe(note);
    const card = await paidSession();
    const refused = await api.post('/v1/refund-requests', {
      payment_id: card.payment.body.id,
      amount: 100,
      crypto_refund_destination_note: note,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'crypto_refund_destination_note' });
  });

  it('refuses a payment that did not succeed', async () => {
    const { payment } = await paidSession({ payment_method: 'card', card_number: '4000000000000002' });
    const res = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 100 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('payment_not_refundable');
  });

  it.each([
    [
      'a missing payment',
      { payment_id: 'pay_000000000000000000000000', amount: 100 },
      404,
      'resource_missing',
      'payment_id',
    ],
    ['a malformed payment id', { payment_id: 'cs_123', amount: 100 }, 404, 'resource_missing', 'payment_id'],
    ['no payment_id', { amount: 100 }, 400, 'parameter_missing', 'payment_id'],
    ['no amount', { payment_id: 'pay_000000000000000000000000' }, 400, 'parameter_missing', 'amount'],
    ['a zero amount', { payment_id: 'pay_000000000000000000000000', amount: 0 }, 400, 'parameter_invalid', 'amount'],
    ['a float amount', { payment_id: 'pay_000000000000000000000000', amount: 1.5 }, 400, 'parameter_invalid', 'amount'],
    [
      'a reason over 500 characters',
      { payment_id: 'pay_000000000000000000000000', amount: 1, reason: 'x'.repeat(501) },
      400,
      'parameter_invalid',
      'reason',
    ],
    [
      'a status in the body',
      { payment_id: 'pay_000000000000000000000000', amount: 1, status: 'completed' },
      400,
      'parameter_unknown',
      'status',
    ],
  ])('refuses %s', async (_name, body, status, code, param) => {
    const res = await api.post('/v1/refund-requests', body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
  });

  it('says a refund of 0 must be positive, with the code /docs#errors gives a value out of range', async () => {
    const { payment } = await paidSession();
    const res = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'amount',
      message: 'Invalid amount: must be positive: at least 1, in minor units',
    });
  });

  it("404s another connection's payment as if it did not exist", async () => {
    const { payment } = await paidSession();
    const other = apiClient((await createTestMerchant()).key);
    const res = await other.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 100 });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'payment_id' });
    expect((await other.get(`/v1/payments/${payment.body.id}`)).status).toBe(404);
  });
});

describe('refund life cycle', () => {
  it('cancels a requested refund under the manual policy and frees its amount; a second cancel is 409', async () => {
    const manual = apiClient((await createTestMerchant({ policy: 'manual' })).key);
    const session = (await manual.post('/v1/checkout-sessions', sessionBody())).body;
    const payment = (
      await manual.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, { payment_method: 'usdc' })
    ).body;
    const note = { crypto_refund_destination_note: 'verified by signed message' };
    const refund = (await manual.post('/v1/refund-requests', { payment_id: payment.id, amount: 3750, ...note })).body;
    // the manual policy waits for a person: still requested after the worker has run
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await manual.get(`/v1/refund-requests/${refund.id}`)).body.status).toBe('requested');
    const canceled = await manual.request('POST', `/v1/refund-requests/${refund.id}/cancel`, { idempotencyKey: null });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: refund.id, status: 'canceled' });
    const again = await manual.post(`/v1/refund-requests/${refund.id}/cancel`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('refund_not_cancelable');
    expect((await manual.get(`/v1/payments/${payment.id}`)).body.amount_refundable).toBe(3750);
    const list = await manual.get(`/v1/refund-requests?payment_id=${payment.id}`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([refund.id]);
  });

  it('cannot cancel a refund the service has authorized', async () => {
    const { payment } = await paidSession();
    const refund = (await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 100 })).body;
    await eventually(
      () => api.get(`/v1/refund-requests/${refund.id}`),
      (r) => r.body.status !== 'requested',
    );
    const res = await api.post(`/v1/refund-requests/${refund.id}/cancel`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('refund_not_cancelable');
  });
});
