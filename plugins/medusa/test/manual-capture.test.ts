import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPaymentModule, PROVIDER_ID, type PaymentModule } from './medusa-app';
import { api, eventually, options, pay, provider, sessionId } from './support';

// Manual capture: paying authorizes, Medusa's capture takes the money, its cancel releases the hold
// (capture_method manual on the sandbox's checkout sessions).

const manualOptions = options({ captureMethod: 'manual' });
let medusa: PaymentModule | undefined;

beforeAll(async () => {
  medusa = await loadPaymentModule(manualOptions);
});

afterAll(async () => medusa?.shutdown());

describe('manual capture', () => {
  it('authorizes on payment, captures when Medusa captures, then refunds part and the rest', async () => {
    const sandbox = provider({ captureMethod: 'manual' });
    const initiated = await sandbox.initiatePayment({
      amount: 40,
      currency_code: 'usd',
      data: { session_id: sessionId() },
    });
    const { json: session } = await api('GET', `/v1/checkout-sessions/${initiated.id}`);
    expect(session).toMatchObject({ capture_method: 'manual', payment_methods: ['card'] });
    const payment = await pay(initiated.id);
    expect(payment).toMatchObject({ status: 'requires_capture', amount_capturable: 4000, amount_captured: 0 });

    const authorized = await sandbox.authorizePayment({ data: initiated.data });
    expect(authorized.status).toBe('authorized');
    const captured = await sandbox.capturePayment({ data: authorized.data, context: { idempotency_key: 'capt_1' } });
    expect(captured.data).toMatchObject({ payment_id: payment.id, payment_status: 'succeeded' });
    // Medusa's second capture of the same payment (its capture of the rest) finds it captured already
    await sandbox.capturePayment({ data: authorized.data, context: { idempotency_key: 'capt_2' } });
    expect((await api('GET', `/v1/payments/${payment.id}`)).json).toMatchObject({
      status: 'succeeded',
      amount_captured: 4000,
    });

    await sandbox.refundPayment({ amount: 15, data: captured.data, context: { idempotency_key: 'mref_1' } });
    await sandbox.refundPayment({ amount: 25, data: captured.data, context: { idempotency_key: 'mref_2' } });
    await eventually(async () => {
      const { json } = await api('GET', `/v1/payments/${payment.id}`);
      return json.amount_refunded === 4000 ? json : undefined;
    }, 'the refunds to complete');
  });

  it('cancel before capture releases the authorization', async () => {
    const sandbox = provider({ captureMethod: 'manual' });
    const initiated = await sandbox.initiatePayment({
      amount: 12,
      currency_code: 'usd',
      data: { session_id: sessionId() },
    });
    const payment = await pay(initiated.id);
    const authorized = await sandbox.authorizePayment({ data: initiated.data });
    const canceled = await sandbox.cancelPayment({ data: authorized.data });
    expect(canceled.data).toMatchObject({ payment_id: payment.id, payment_status: 'canceled' });
    expect((await api('GET', `/v1/payments/${payment.id}`)).json).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested_by_merchant',
    });
    expect((await sandbox.authorizePayment({ data: authorized.data })).status).toBe('canceled');
    // canceling again (a retried cancel) is not an error
    await sandbox.cancelPayment({ data: authorized.data });
    await expect(sandbox.capturePayment({ data: authorized.data })).rejects.toThrow(/it is canceled/);
  });

  it('inside Medusa’s payment module: authorize, capture part, capture the rest, refund part, refund the rest', async () => {
    const service = medusa!.service;
    const collection = await service.createPaymentCollections({ currency_code: 'usd', amount: 50 });
    const session = await service.createPaymentSession(collection.id, {
      provider_id: PROVIDER_ID,
      amount: 50,
      currency_code: 'usd',
      data: {},
    });
    const paid = await pay(session.data?.checkout_session_id as string);
    const payment = (await service.authorizePaymentSession(session.id, {}))!;
    expect((await service.retrievePayment(payment.id)).captured_at).toBeFalsy();
    expect((await service.retrievePaymentCollection(collection.id)).status).toBe('authorized');

    await service.capturePayment({ payment_id: payment.id, amount: 20 });
    // Medusa gives the provider no amount: the sandbox captures the whole authorization, once
    expect((await api('GET', `/v1/payments/${paid.id}`)).json).toMatchObject({
      status: 'succeeded',
      amount_captured: 5000,
    });
    await service.capturePayment({ payment_id: payment.id, amount: 30 });
    expect((await service.retrievePaymentCollection(collection.id)).status).toBe('completed');

    await service.refundPayment({ payment_id: payment.id, amount: 20 });
    await service.refundPayment({ payment_id: payment.id, amount: 30 });
    await eventually(async () => {
      const { json } = await api('GET', `/v1/payments/${paid.id}`);
      return json.amount_refunded === 5000 ? json : undefined;
    }, 'the refunds to complete');
  });

  it('inside Medusa’s payment module: cancel before capture', async () => {
    const service = medusa!.service;
    const collection = await service.createPaymentCollections({ currency_code: 'usd', amount: 9 });
    const session = await service.createPaymentSession(collection.id, {
      provider_id: PROVIDER_ID,
      amount: 9,
      currency_code: 'usd',
      data: {},
    });
    const paid = await pay(session.data?.checkout_session_id as string);
    const payment = (await service.authorizePaymentSession(session.id, {}))!;
    await service.cancelPayment(payment.id);
    expect((await service.retrievePayment(payment.id)).canceled_at).toBeTruthy();
    expect((await api('GET', `/v1/payments/${paid.id}`)).json.status).toBe('canceled');
  });

  it('maps payment.authorized and a manual session’s completion to authorized, payment.canceled to canceled', async () => {
    const sandbox = provider({ captureMethod: 'manual' });
    const id = sessionId();
    const initiated = await sandbox.initiatePayment({ amount: 11, currency_code: 'usd', data: { session_id: id } });
    const payment = await pay(initiated.id);
    await sandbox.cancelPayment({ data: { ...initiated.data, payment_id: payment.id } });
    const { json: events } = await api('GET', '/v1/events?limit=20');
    const signer = new Webhook(sandbox['options_'].webhookSecret);
    const actionOf = async (type: string) => {
      const event = events.data.find(
        (candidate: any) =>
          candidate.type === type &&
          [candidate.data.object.id, candidate.data.object.checkout_session_id].includes(initiated.id),
      );
      const raw = JSON.stringify(event);
      const timestamp = new Date();
      const headers = {
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signer.sign(event.id, timestamp, raw),
      };
      return sandbox.getWebhookActionAndData({ data: event, rawData: raw, headers });
    };
    expect((await actionOf('payment.authorized')).action).toBe('authorized');
    expect((await actionOf('checkout_session.completed')).action).toBe('authorized');
    expect(await actionOf('payment.canceled')).toMatchObject({ action: 'canceled', data: { session_id: id } });
  });
});
