import gql from 'graphql-tag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, pay, startVendure, type Vendure } from './support';
import { checkout, orderByCode } from './storefront';

// Manual capture: paying authorizes (the order is PaymentAuthorized), the admin's settle captures and the
// admin's cancel releases the authorization in the sandbox (capture_method manual).

let vendure: Vendure;

beforeAll(async () => {
  vendure = await startVendure({ captureMethod: 'manual' });
});

afterAll(async () => {
  await vendure?.server.destroy();
});

async function authorizedOrder(
  email: string,
): Promise<{ orderCode: string; paymentId: string; sandboxPaymentId: string }> {
  const { orderCode, checkoutSessionId } = await checkout(vendure.shop, email);
  const { json: session } = await api('GET', `/v1/checkout-sessions/${checkoutSessionId}`);
  expect(session.capture_method).toBe('manual');
  const payment = await pay(checkoutSessionId);
  expect(payment.status).toBe('requires_capture');
  const order = await eventually(async () => {
    const found = await orderByCode(vendure.admin, orderCode);
    return found.state === 'PaymentAuthorized' ? found : undefined;
  }, 'the webhook to authorize the order');
  expect(order.payments[0]).toMatchObject({ state: 'Authorized', transactionId: payment.id });
  return { orderCode, paymentId: order.payments[0].id, sandboxPaymentId: payment.id };
}

describe('manual capture', () => {
  it('authorizes when paid and captures when the admin settles the payment', async () => {
    const { orderCode, paymentId, sandboxPaymentId } = await authorizedOrder('grace@example.com');
    const { settlePayment } = await vendure.admin.query(
      gql`
        mutation ($id: ID!) {
          settlePayment(id: $id) {
            ... on Payment {
              state
            }
            ... on ErrorResult {
              errorCode
              message
            }
          }
        }
      `,
      { id: paymentId },
    );
    expect(settlePayment).toEqual({ state: 'Settled' });
    expect((await api('GET', `/v1/payments/${sandboxPaymentId}`)).json).toMatchObject({ status: 'succeeded' });
    expect((await orderByCode(vendure.admin, orderCode)).state).toBe('PaymentSettled');
  });

  it('releases the authorization when the admin cancels the payment', async () => {
    const { paymentId, sandboxPaymentId } = await authorizedOrder('alan@example.com');
    const { cancelPayment } = await vendure.admin.query(
      gql`
        mutation ($id: ID!) {
          cancelPayment(id: $id) {
            ... on Payment {
              state
            }
            ... on ErrorResult {
              errorCode
              message
            }
          }
        }
      `,
      { id: paymentId },
    );
    expect(cancelPayment).toEqual({ state: 'Cancelled' });
    expect((await api('GET', `/v1/payments/${sandboxPaymentId}`)).json).toMatchObject({ status: 'canceled' });
  });
});
