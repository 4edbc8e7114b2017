// One example answer per operation, for the document's 2xx responses and the "Example response" of /docs.
// They tell one story, continuing the request examples of the operations: order-1001 is paid by card,
// part of it is refunded, and a webhook endpoint hears about it. lib/openapi/examples.test.ts parses each
// with its operation's strict response schema, so an example cannot drift from what the API answers.

const IDS = {
  session: 'cs_4fQ9tLm2Xr7KpV1cN8wZ3bYd',
  order: 'ord_7Hs2MkQp9Lx4Vt1Wn6Rc3Bza',
  payment: 'pay_8bKpZr2xQmV4tN6sW1yHc0Ld',
  refund: 'rr_2Jw7Nc5Qv9Tx3Lk8Pm1Ry6Hb',
  paymentLink: 'pl_9Tz4Kq1Wm6Vr3Nx8Lc2Hp5Sd',
  webhookEndpoint: 'we_5Rn8Vx2Lq7Kt4Wm9Hc1Pz3Fb',
  event: 'evt_6Mq3Wz8Kr1Tv5Nx2Lp9Hc4Yd',
} as const;

const CREATED = '2026-11-20T15:04:05.123Z';

function checkoutSession(serverUrl: string, paid: boolean) {
  return {
    id: IDS.session,
    object: 'checkout_session',
    environment: 'sandbox',
    status: paid ? 'complete' : 'open',
    payment_status: paid ? 'paid' : 'unpaid',
    url: `${serverUrl}/checkout/${IDS.session}`,
    order_id: IDS.order,
    order_reference: 'order-1001',
    currency: 'USD',
    amount: 3750,
    items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
    shipping_amount: 500,
    tax_amount: 250,
    payment_methods: ['card', 'usdc'],
    return_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
    payment_id: paid ? IDS.payment : null,
    expires_at: '2026-11-20T15:34:05.123Z',
    created_at: CREATED,
  };
}

function payment(refunded: boolean) {
  return {
    id: IDS.payment,
    object: 'payment',
    status: 'succeeded',
    amount: 3750,
    currency: 'USD',
    payment_method: 'card',
    payment_method_details: { card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
    failure_code: null,
    checkout_session_id: IDS.session,
    order_id: IDS.order,
    order_reference: 'order-1001',
    amount_refunded: refunded ? 1500 : 0,
    amount_refundable: refunded ? 2250 : 3750,
    created_at: '2026-11-20T15:06:41.877Z',
  };
}

function refundRequest(status: 'requested' | 'completed' | 'failed' | 'canceled') {
  return {
    id: IDS.refund,
    object: 'refund_request',
    payment_id: IDS.payment,
    amount: 1500,
    currency: 'USD',
    status,
    reason: 'One T-shirt returned',
    failure_reason: status === 'failed' ? 'Card account closed' : null,
    created_at: '2026-11-21T09:12:30.004Z',
    updated_at: status === 'requested' ? '2026-11-21T09:12:30.004Z' : '2026-11-21T09:12:32.518Z',
  };
}

function paymentLink(serverUrl: string, active: boolean) {
  return {
    id: IDS.paymentLink,
    object: 'payment_link',
    name: 'Gift card',
    description: 'A $25 gift card',
    amount: 2500,
    currency: 'CAD',
    payment_methods: null,
    after_payment_url: 'https://shop.example.com/thanks',
    active,
    url: `${serverUrl}/pay/${IDS.paymentLink}`,
    created_at: CREATED,
  };
}

const webhookEndpoint = {
  id: IDS.webhookEndpoint,
  object: 'webhook_endpoint',
  url: 'https://shop.example.com/api/webhooks',
  description: 'Order fulfilment',
  events: ['checkout_session.completed', 'refund.completed'],
  status: 'enabled',
  created_at: CREATED,
};

// a made-up secret of the real shape: whsec_ and base64
const withSecret = (secret: string) => ({ ...webhookEndpoint, secret: `whsec_${secret}` });

function event(serverUrl: string) {
  return {
    id: IDS.event,
    object: 'event',
    type: 'checkout_session.completed',
    created_at: '2026-11-20T15:06:41.877Z',
    data: { object: checkoutSession(serverUrl, true) },
  };
}

const list = (item: unknown) => ({ object: 'list', data: [item], has_more: false });

/** The example answer of each operation of API_OPERATIONS, by operationId, with this deployment's URLs. */
export function responseExamples(serverUrl: string): Record<string, unknown> {
  const base = serverUrl.replace(/\/$/, '');
  return {
    createCheckoutSession: checkoutSession(base, false),
    listCheckoutSessions: list(checkoutSession(base, true)),
    getCheckoutSession: checkoutSession(base, true),
    expireCheckoutSession: { ...checkoutSession(base, false), status: 'expired' },
    listPayments: list(payment(true)),
    getPayment: payment(true),
    createRefundRequest: refundRequest('requested'),
    listRefundRequests: list(refundRequest('completed')),
    getRefundRequest: refundRequest('completed'),
    cancelRefundRequest: refundRequest('canceled'),
    createPaymentLink: paymentLink(base, true),
    listPaymentLinks: list(paymentLink(base, true)),
    getPaymentLink: paymentLink(base, true),
    updatePaymentLink: paymentLink(base, false),
    createWebhookEndpoint: withSecret('c2FuZGJveCBleGFtcGxlIHNlY3JldCAx'),
    listWebhookEndpoints: list(webhookEndpoint),
    getWebhookEndpoint: webhookEndpoint,
    deleteWebhookEndpoint: { id: IDS.webhookEndpoint, object: 'webhook_endpoint', deleted: true },
    rotateWebhookSecret: withSecret('c2FuZGJveCBleGFtcGxlIHNlY3JldCAy'),
    listEvents: list(event(base)),
    getEvent: event(base),
    payCheckoutSession: payment(false),
    completeRefundRequest: refundRequest('completed'),
    failRefundRequest: refundRequest('failed'),
    getOpenApiDocument: {
      openapi: '3.1.0',
      info: { title: 'Sandbox Payments API', version: '1' },
      servers: [{ url: base, description: 'Sandbox' }],
      paths: {
        '/v1/checkout-sessions': {
          post: { operationId: 'createCheckoutSession', summary: 'Create a checkout session' },
        },
      },
    },
  };
}
