import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';

// The refund test helpers over HTTP (/docs, Test helpers): an integration test finishes a refund at once
// instead of waiting for the provider. Their rules under concurrency are in lib/refunds/service.test.ts.

let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  api = apiClient((await createTestMerchant({ policy: 'automatic' })).key);
});

async function requestedRefund(amount = 1000) {
  const session = await api.post('/v1/checkout-sessions', sessionBody());
  const payment = await api.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  const refund = await api.post('/v1/refund-requests', { payment_id: payment.body.id, amount });
  expect(refund.status).toBe(201);
  return { paymentId: payment.body.id as string, refundId: refund.body.id as string };
}

async function eventsAbout(refundId: string, type: string) {
  const events = await api.get(`/v1/events?type=${type}&limit=100`);
  return events.body.data.filter((event: any) => event.data.object.id === refundId);
}

describe('POST /v1/test-helpers/refund-requests/{id}/complete', () => {
  it('completes a refund at once: the payment counts it and refund.completed is sent', async () => {
    const { paymentId, refundId } = await requestedRefund(1000);
    const done = await api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`);
    expect([done.status, done.body.object, done.body.status]).toEqual([200, 'refund_request', 'completed']);
    expect((await api.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ amount_refunded: 1000 });
    const events = await api.get('/v1/events?type=refund.completed&limit=100');
    expect(events.body.data.filter((event: any) => event.data.object.id === refundId)).toHaveLength(1);

    const again = await api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`);
    expect([again.status, again.body.error?.code]).toEqual([409, 'refund_not_pending']);
  });

  it('honours an Idempotency-Key: a retry replays the answer, even after the refund finished', async () => {
    const { refundId } = await requestedRefund(400);
    const idempotencyKey = `complete-${refundId}`;
    const first = await api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`, undefined, {
      idempotencyKey,
    });
    const retry = await api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`, undefined, {
      idempotencyKey,
    });
    expect([first.status, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(retry.body).toEqual(first.body);
    expect(await eventsAbout(refundId, 'refund.completed')).toHaveLength(1);
  });

  it('finishes a refund once under ten concurrent calls with one key: the others replay it or wait', async () => {
    const { paymentId, refundId } = await requestedRefund(300);
    const calls = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`, undefined, {
          idempotencyKey: `race-${refundId}`,
        }),
      ),
    );
    const answered = calls.filter((call) => call.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answered.map((call) => JSON.stringify(call.body))).size).toBe(1);
    for (const call of calls.filter((call) => call.status !== 200)) {
      expect([call.status, call.body.error?.code]).toEqual([409, 'idempotency_key_in_use']);
    }
    expect((await api.get(`/v1/payments/${paymentId}`)).body.amount_refunded).toBe(300);
    expect(await eventsAbout(refundId, 'refund.completed')).toHaveLength(1);
  });

  it('finishes a refund once when ten calls with their own keys race to complete or fail it', async () => {
    const { paymentId, refundId } = await requestedRefund(300);
    const calls = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post(`/v1/test-helpers/refund-requests/${refundId}/${i % 2 ? 'complete' : 'fail'}`),
      ),
    );
    expect(calls.filter((call) => call.status === 200)).toHaveLength(1);
    for (const call of calls.filter((call) => call.status !== 200)) {
      expect([call.status, call.body.error?.code]).toEqual([409, 'refund_not_pending']);
    }
    const refund = (await api.get(`/v1/refund-requests/${refundId}`)).body;
    expect((await api.get(`/v1/payments/${paymentId}`)).body.amount_refunded).toBe(
      refund.status === 'completed' ? 300 : 0,
    );
    expect(await eventsAbout(refundId, 'refund.completed')).toHaveLength(refund.status === 'completed' ? 1 : 0);
    expect(await eventsAbout(refundId, 'refund.failed')).toHaveLength(refund.status === 'failed' ? 1 : 0);
  });

  it('answers 404 for a refund it does not know, and refuses a body', async () => {
    const missing = await api.post(`/v1/test-helpers/refund-requests/rr_${'0'.repeat(24)}/complete`);
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'resource_missing']);
    const { refundId } = await requestedRefund();
    const withBody = await api.post(`/v1/test-helpers/refund-requests/${refundId}/complete`, { now: true });
    expect([withBody.status, withBody.body.error?.code]).toEqual([400, 'parameter_unknown']);
  });
});

describe('POST /v1/test-helpers/refund-requests/{id}/fail', () => {
  it('fails a refund with its reason and makes the amount refundable again', async () => {
    const { paymentId, refundId } = await requestedRefund(1500);
    const failed = await api.post(`/v1/test-helpers/refund-requests/${refundId}/fail`, {
      failure_reason: 'Card account closed',
    });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'Card account closed' });
    expect((await api.get(`/v1/payments/${paymentId}`)).body).toMatchObject({
      amount_refunded: 0,
      amount_refundable: 3750,
    });
  });

  it('takes no body too, and refuses an empty or unknown reason field', async () => {
    const { refundId } = await requestedRefund();
    const empty = await api.post(`/v1/test-helpers/refund-requests/${refundId}/fail`, { failure_reason: '' });
    expect([empty.status, empty.body.error?.code, empty.body.error?.param]).toEqual([
      400,
      'parameter_invalid',
      'failure_reason',
    ]);
    const tooLong = await api.post(`/v1/test-helpers/refund-requests/${refundId}/fail`, {
      failure_reason: 'x'.repeat(501),
    });
    expect([tooLong.status, tooLong.body.error?.code, tooLong.body.error?.param]).toEqual([
      400,
      'parameter_invalid',
      'failure_reason',
    ]);
    const failed = await api.post(`/v1/test-helpers/refund-requests/${refundId}/fail`);
    expect(failed.body).toMatchObject({ status: 'failed' });
    expect(failed.body.failure_reason).toEqual(expect.any(String));
  });

  it('sends refund.failed once, and an Idempotency-Key replays the answer instead of failing it twice', async () => {
    const { refundId } = await requestedRefund(700);
    const path = `/v1/test-helpers/refund-requests/${refundId}/fail`;
    const body = { failure_reason: 'Account closed' };
    const first = await api.post(path, body, { idempotencyKey: `fail-${refundId}` });
    const retry = await api.post(path, body, { idempotencyKey: `fail-${refundId}` });
    expect([first.status, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(retry.body).toEqual(first.body);
    const events = await eventsAbout(refundId, 'refund.failed');
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toMatchObject({ id: refundId, status: 'failed', failure_reason: 'Account closed' });
    const again = await api.post(path, body);
    expect([again.status, again.body.error?.code]).toEqual([409, 'refund_not_pending']);
  });
});

describe('a refund waiting for approval (manual policy)', () => {
  it('is not pending at the provider: complete and fail answer 409 refund_not_pending and change nothing', async () => {
    const manual = apiClient((await createTestMerchant({ policy: 'manual' })).key);
    const session = await manual.post('/v1/checkout-sessions', sessionBody());
    const payment = await manual.post(`/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    const refund = await manual.post('/v1/refund-requests', { payment_id: payment.body.id, amount: 500 });
    for (const action of ['complete', 'fail']) {
      const refused = await manual.post(`/v1/test-helpers/refund-requests/${refund.body.id}/${action}`);
      expect([refused.status, refused.body.error?.code]).toEqual([409, 'refund_not_pending']);
    }
    expect((await manual.get(`/v1/refund-requests/${refund.body.id}`)).body.status).toBe('requested');
  });
});
