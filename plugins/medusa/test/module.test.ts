import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPaymentModule, PROVIDER_ID, type PaymentModule } from './medusa-app';
import { api, DECLINED, eventually, options, pay } from './support';

// The same life cycle through Medusa's own payment module service: what a cart's checkout, an order's
// refund and a cart change call.

let medusa: PaymentModule;

beforeAll(async () => {
  medusa = await loadPaymentModule(options());
});

afterAll(async () => medusa?.shutdown());

async function sessionFor(amount: number) {
  const collection = await medusa.service.createPaymentCollections({ currency_code: 'usd', amount });
  const session = await medusa.service.createPaymentSession(collection.id, {
    provider_id: PROVIDER_ID,
    amount,
    currency_code: 'usd',
    data: {},
  });
  return { collection, session, checkoutSessionId: session.data?.checkout_session_id as string };
}

describe('inside Medusa’s payment module', () => {
  it('registers the provider as pp_sandbox_test', async () => {
    const providers = await medusa.service.listPaymentProviders({ id: PROVIDER_ID });
    expect(providers.map((provider) => [provider.id, provider.is_enabled])).toEqual([[PROVIDER_ID, true]]);
  });

  it('takes a payment session through authorization (captured on payment), then a part refund and the rest', async () => {
    const { collection, session, checkoutSessionId } = await sessionFor(50);
    expect(session.status).toBe('pending');
    const { json: checkout } = await api('GET', `/v1/checkout-sessions/${checkoutSessionId}`);
    // Medusa's payment session is the sandbox order, by reference and in metadata
    expect(checkout).toMatchObject({
      order_reference: session.id,
      amount: 5000,
      metadata: { medusa_payment_session_id: session.id },
    });

    await expect(medusa.service.authorizePaymentSession(session.id, {})).rejects.toThrow(/was not authorized/);
    expect((await medusa.service.retrievePaymentSession(session.id)).status).toBe('requires_more');

    const paid = await pay(checkoutSessionId);
    const payment = (await medusa.service.authorizePaymentSession(session.id, {}))!;
    expect(payment.data).toMatchObject({ payment_id: paid.id, payment_status: 'succeeded' });
    const captured = await medusa.service.retrievePayment(payment.id, { relations: ['captures'] });
    expect(captured.captured_at).toBeTruthy();
    expect(captured.captures?.map((capture) => Number(capture.amount))).toEqual([50]);
    expect((await medusa.service.retrievePaymentCollection(collection.id)).status).toBe('completed');
    // authorizing again (a retried cart completion) answers the same payment
    expect((await medusa.service.authorizePaymentSession(session.id, {}))?.id).toBe(payment.id);

    await medusa.service.refundPayment({ payment_id: payment.id, amount: 20 });
    await medusa.service.refundPayment({ payment_id: payment.id, amount: 30 });
    const refunded = await medusa.service.retrievePayment(payment.id, { relations: ['refunds'] });
    expect(refunded.refunds?.map((refund) => Number(refund.amount)).sort()).toEqual([20, 30]);
    expect(refunded.data?.refund_request_ids).toHaveLength(2);
    const { json: refunds } = await api('GET', `/v1/refund-requests?payment_id=${paid.id}`);
    // each refund's Medusa id was its Idempotency-Key and is in its metadata
    expect(refunds.data.map((refund: any) => refund.metadata.medusa_refund_key).sort()).toEqual(
      refunded.refunds!.map((refund) => refund.id).sort(),
    );
    await eventually(async () => {
      const { json } = await api('GET', `/v1/payments/${paid.id}`);
      return json.amount_refunded === 5000 ? json : undefined;
    }, 'the refunds to complete');
    await expect(medusa.service.refundPayment({ payment_id: payment.id, amount: 1 })).rejects.toThrow(
      /cannot refund more than what is captured/,
    );
  });

  it('fails completion after a decline, and authorizes the same session once a retry is paid', async () => {
    const { session, checkoutSessionId } = await sessionFor(15);
    await pay(checkoutSessionId, DECLINED);
    await expect(medusa.service.authorizePaymentSession(session.id, {})).rejects.toThrow(/was not authorized/);
    expect((await medusa.service.retrievePaymentSession(session.id)).status).toBe('error');

    await pay(checkoutSessionId);
    const payment = (await medusa.service.authorizePaymentSession(session.id, {}))!;
    expect((await medusa.service.retrievePaymentSession(session.id)).status).toBe('authorized');
    expect((await medusa.service.retrievePayment(payment.id)).captured_at).toBeTruthy();
  });

  it('marks a session whose checkout expired canceled, and deleting a session expires its checkout', async () => {
    const expiring = await sessionFor(7);
    await api('POST', `/v1/checkout-sessions/${expiring.checkoutSessionId}/expire`, {});
    await expect(medusa.service.authorizePaymentSession(expiring.session.id, {})).rejects.toThrow(/was not authorized/);
    expect((await medusa.service.retrievePaymentSession(expiring.session.id)).status).toBe('canceled');

    const deleted = await sessionFor(8);
    await medusa.service.deletePaymentSession(deleted.session.id);
    expect((await api('GET', `/v1/checkout-sessions/${deleted.checkoutSessionId}`)).json.status).toBe('expired');
  });
});
