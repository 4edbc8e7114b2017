import { describe, expect, it } from 'vitest';
import { api, DECLINED, eventually, pay, provider, sessionId } from './support';

// The provider's methods called directly, as Medusa's payment module calls them, against the running sandbox.

describe('automatic capture, driven directly', () => {
  it('initiates a checkout session, answers requires_more while open and captured once paid, then refunds part and the rest', async () => {
    const sandbox = provider();
    const id = sessionId();
    const initiated = await sandbox.initiatePayment({
      amount: 37.5,
      currency_code: 'usd',
      data: { session_id: id },
      context: { idempotency_key: id },
    });
    expect(initiated.id).toMatch(/^cs_/);
    expect(initiated.status).toBe('pending');
    expect(initiated.data).toMatchObject({ checkout_session_id: initiated.id, amount: 3750, currency: 'USD' });
    expect(initiated.data?.checkout_url).toMatch(new RegExp(`/checkout/${initiated.id}$`));

    const { json: session } = await api('GET', `/v1/checkout-sessions/${initiated.id}`);
    expect(session).toMatchObject({
      order_reference: id,
      amount: 3750,
      currency: 'USD',
      items: [{ name: 'Order total', quantity: 1, unit_amount: 3750 }],
      return_url: 'http://localhost:4000/checkout/return',
      cancel_url: 'http://localhost:4000/checkout',
      metadata: { medusa_payment_session_id: id },
    });
    // Medusa's idempotency key: a retried initiate is the same session
    const again = await sandbox.initiatePayment({
      amount: 37.5,
      currency_code: 'usd',
      data: { session_id: id },
      context: { idempotency_key: id },
    });
    expect(again.id).toBe(initiated.id);

    expect((await sandbox.authorizePayment({ data: initiated.data })).status).toBe('requires_more');

    const payment = await pay(initiated.id);
    const authorized = await sandbox.authorizePayment({ data: initiated.data });
    expect(authorized.status).toBe('captured');
    expect(authorized.data).toMatchObject({ payment_id: payment.id, payment_status: 'succeeded' });
    expect((await sandbox.getPaymentStatus({ data: authorized.data })).status).toBe('captured');
    // captured when paid: Medusa's capture has nothing left to do
    expect((await sandbox.capturePayment({ data: authorized.data })).data).toEqual(authorized.data);

    const first = await sandbox.refundPayment({
      amount: 10.25,
      data: authorized.data,
      context: { idempotency_key: 'ref_first' },
    });
    const rest = await sandbox.refundPayment({
      amount: 27.25,
      data: first.data,
      context: { idempotency_key: 'ref_rest' },
    });
    const refundIds = rest.data?.refund_request_ids as string[];
    expect(refundIds).toHaveLength(2);
    const { json: refunds } = await api('GET', `/v1/refund-requests?payment_id=${payment.id}`);
    expect(
      refunds.data.map((refund: any) => [refund.amount, refund.metadata.medusa_payment_session_id]).sort(),
    ).toEqual([
      [1025, id],
      [2725, id],
    ]);
    // the sandbox's worker completes them
    const finished = await eventually(async () => {
      const { json } = await api('GET', `/v1/payments/${payment.id}`);
      return json.amount_refunded === 3750 ? json : undefined;
    }, 'both refunds to complete');
    expect(finished.amount_refundable).toBe(0);
    // a retried refund (Medusa's refund id as the key) is not a second refund
    await sandbox.refundPayment({ amount: 10.25, data: authorized.data, context: { idempotency_key: 'ref_first' } });
    expect((await api('GET', `/v1/refund-requests?payment_id=${payment.id}`)).json.data).toHaveLength(2);
    // and nothing is left to refund
    await expect(
      sandbox.refundPayment({ amount: 0.01, data: authorized.data, context: { idempotency_key: 'ref_more' } }),
    ).rejects.toThrow(/refund_exceeds_available/);
  });

  it('answers error after a decline while the session stays open, and captured after a retry that succeeds', async () => {
    const sandbox = provider();
    const id = sessionId();
    const { data } = await sandbox.initiatePayment({ amount: 12, currency_code: 'usd', data: { session_id: id } });
    const declined = await pay(data!.checkout_session_id as string, DECLINED);
    expect(declined).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    expect((await sandbox.authorizePayment({ data })).status).toBe('error');

    await pay(data!.checkout_session_id as string);
    expect((await sandbox.authorizePayment({ data })).status).toBe('captured');
  });

  it('answers canceled for a session the test clock expired, and for one deletePayment expired', async () => {
    const sandbox = provider();
    const timedOut = await sandbox.initiatePayment({
      amount: 5,
      currency_code: 'cad',
      data: { session_id: sessionId() },
    });
    const deleted = await sandbox.initiatePayment({
      amount: 6,
      currency_code: 'cad',
      data: { session_id: sessionId() },
    });
    expect(timedOut.data).toMatchObject({ currency: 'CAD', amount: 500 });

    await sandbox.deletePayment({ data: deleted.data });
    expect((await api('GET', `/v1/checkout-sessions/${deleted.id}`)).json.status).toBe('expired');
    expect((await sandbox.authorizePayment({ data: deleted.data })).status).toBe('canceled');
    // deleting twice, or a session already gone, is not an error
    await sandbox.deletePayment({ data: deleted.data });

    const clock = await api('POST', '/v1/test-helpers/clock/advance', { seconds: 31 * 60 });
    expect(clock.status).toBe(200);
    expect((await sandbox.authorizePayment({ data: timedOut.data })).status).toBe('canceled');
  });

  it('cancels an unpaid session by expiring it, and refuses to cancel a captured payment', async () => {
    const sandbox = provider();
    const unpaid = await sandbox.initiatePayment({
      amount: 8,
      currency_code: 'usd',
      data: { session_id: sessionId() },
    });
    await sandbox.cancelPayment({ data: unpaid.data });
    expect((await api('GET', `/v1/checkout-sessions/${unpaid.id}`)).json.status).toBe('expired');

    const paid = await sandbox.initiatePayment({ amount: 9, currency_code: 'usd', data: { session_id: sessionId() } });
    await pay(paid.id);
    await expect(sandbox.cancelPayment({ data: paid.data })).rejects.toThrow(/was captured; refund it instead/);
  });

  it('makes a new checkout session when updatePayment changes the amount, and expires the old one', async () => {
    const sandbox = provider();
    const id = sessionId();
    const first = await sandbox.initiatePayment({ amount: 20, currency_code: 'usd', data: { session_id: id } });
    const same = await sandbox.updatePayment({ amount: 20, currency_code: 'usd', data: first.data });
    expect(same.data).toEqual(first.data);

    const updated = await sandbox.updatePayment({ amount: 25.5, currency_code: 'usd', data: first.data });
    expect(updated.data).toMatchObject({ session_id: id, amount: 2550 });
    expect(updated.data?.checkout_session_id).not.toBe(first.id);
    expect((await api('GET', `/v1/checkout-sessions/${first.id}`)).json.status).toBe('expired');
    const retried = await sandbox.updatePayment({ amount: 25.5, currency_code: 'usd', data: first.data });
    expect(retried.data?.checkout_session_id).toBe(updated.data?.checkout_session_id);
  });

  it('refuses a currency the sandbox does not take, and says what the API refused', async () => {
    const sandbox = provider();
    await expect(
      sandbox.initiatePayment({ amount: 10, currency_code: 'eur', data: { session_id: sessionId() } }),
    ).rejects.toThrow('Sandbox payments takes USD or CAD only; this payment is in EUR');

    const elsewhere = provider({ returnUrl: 'https://not-approved.example.org/thanks' });
    await expect(
      elsewhere.initiatePayment({ amount: 10, currency_code: 'usd', data: { session_id: sessionId() } }),
    ).rejects.toThrow(/url_not_approved, param return_url.*Approve the storefront host/);

    const revoked = provider({ apiKey: `sk_sandbox_${'x'.repeat(32)}` });
    await expect(
      revoked.initiatePayment({ amount: 10, currency_code: 'usd', data: { session_id: sessionId() } }),
    ).rejects.toThrow(/invalid_api_key.*Check the provider option apiKey/);
  });
});
