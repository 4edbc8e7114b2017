import gql from 'graphql-tag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, pay, sandboxUrl, startVendure, type Vendure } from './support';
import { checkout, orderByCode } from './storefront';

// Automatic capture, end to end: a storefront's order paid on the hosted checkout (the sandbox's test helper
// pays as the page would), the signed webhook settling it in Vendure, then an admin refund the sandbox
// completes, whose event settles the refund.

let vendure: Vendure;

beforeAll(async () => {
  vendure = await startVendure();
});

afterAll(async () => {
  await vendure?.server.destroy();
});

describe('automatic capture', () => {
  it('settles a storefront’s order when the sandbox’s webhook says it was paid, and an admin refund when the sandbox completes it', async () => {
    const { orderCode, total, checkoutSessionId, url } = await checkout(vendure.shop, 'ada@example.com');
    expect(url).toBe(`${sandboxUrl}/checkout/${checkoutSessionId}`);
    const { json: session } = await api('GET', `/v1/checkout-sessions/${checkoutSessionId}`);
    expect(session).toMatchObject({ order_reference: orderCode, amount: total, currency: 'USD', status: 'open' });
    expect(session.items).toEqual([{ name: 'Sandbox Mug', quantity: 2, unit_amount: 1250 }]);
    expect(session.shipping_amount).toBe(500);
    expect((await orderByCode(vendure.admin, orderCode)).state).toBe('ArrangingPayment');

    const payment = await pay(checkoutSessionId);
    const settled = await eventually(async () => {
      const order = await orderByCode(vendure.admin, orderCode);
      return order.state === 'PaymentSettled' ? order : undefined;
    }, 'the webhook to settle the order');
    expect(settled.payments).toHaveLength(1);
    expect(settled.payments[0]).toMatchObject({ state: 'Settled', amount: total, transactionId: payment.id });

    const { refundOrder } = await vendure.admin.query(
      gql`
        mutation ($input: RefundOrderInput!) {
          refundOrder(input: $input) {
            ... on Refund {
              id
              state
              total
              transactionId
            }
            ... on ErrorResult {
              errorCode
              message
            }
          }
        }
      `,
      {
        // shipping and adjustment are deprecated in favour of amount, yet Vendure 3.7 still writes them to NOT NULL columns
        input: {
          paymentId: settled.payments[0].id,
          amount: 1000,
          shipping: 0,
          adjustment: 0,
          reason: 'Customer returned one mug',
        },
      },
    );
    expect(refundOrder).toMatchObject({ state: 'Pending', total: 1000 });
    expect(refundOrder.transactionId).toMatch(/^rr_/);
    const { json: request } = await api('GET', `/v1/refund-requests/${refundOrder.transactionId}`);
    expect(request).toMatchObject({ payment_id: payment.id, amount: 1000, reason: 'Customer returned one mug' });

    const completed = await api('POST', `/v1/test-helpers/refund-requests/${refundOrder.transactionId}/complete`, {});
    expect(completed.json.status).toBe('completed');
    const refund = await eventually(async () => {
      const order = await orderByCode(vendure.admin, orderCode);
      const found = order.payments[0].refunds.find((r: { id: string }) => r.id === refundOrder.id);
      return found?.state === 'Settled' ? found : undefined;
    }, 'refund.completed to settle the refund');
    expect(refund.total).toBe(1000);
  });

  it('refuses a delivery whose signature does not match its body, and acts on nothing', async () => {
    const body = JSON.stringify({ id: 'evt_forged', type: 'refund.completed', data: { object: { id: 'rr_forged' } } });
    const response = await fetch(vendure.webhookUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,c2lnbmF0dXJlIG9mIHNvbWV0aGluZyBlbHNl',
      },
      body,
    });
    expect(response.status).toBe(400);
  });
});
