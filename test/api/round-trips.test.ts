import { beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { apiClient, createTestMerchant, sessionBody, type ApiResponse } from '../helpers';

// How many database round trips each /v1 endpoint makes on its success path (README, "Performance"), read
// from the Db-Round-Trips header the test server adds (DB_COUNT_ROUND_TRIPS). A change that adds a query to
// a request fails here until the table below, and the README's, say why.

/** operationId → round trips of one successful call, the request log aside (it is written in batches later). */
const ROUND_TRIPS: Record<string, number> = {
  createCheckoutSession: 5,
  listCheckoutSessions: 4,
  getCheckoutSession: 4,
  expireCheckoutSession: 10,
  listPayments: 4,
  getPayment: 4,
  createRefundRequest: 5,
  listRefundRequests: 4,
  getRefundRequest: 4,
  cancelRefundRequest: 11,
  createPaymentLink: 5,
  listPaymentLinks: 4,
  getPaymentLink: 4,
  updatePaymentLink: 9,
  createWebhookEndpoint: 4,
  listWebhookEndpoints: 4,
  getWebhookEndpoint: 4,
  deleteWebhookEndpoint: 7,
  rotateWebhookSecret: 10,
  listEvents: 4,
  getEvent: 4,
  payCheckoutSession: 17,
  completeRefundRequest: 12,
  failRefundRequest: 12,
};

let api: ReturnType<typeof apiClient>;
const calls = new Map<string, () => Promise<ApiResponse>>();

async function created(response: Promise<ApiResponse>): Promise<string> {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body.id;
}

beforeAll(async () => {
  api = apiClient((await createTestMerchant({ policy: 'manual' })).key);
  const open = () => created(api.post('/v1/checkout-sessions', sessionBody()));
  const paid = async () => {
    const session = await open();
    return created(
      api.post(`/v1/test-helpers/checkout-sessions/${session}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      }),
    );
  };
  const [sessionId, toExpire, toPay, paymentId, refundPaymentId] = await Promise.all([
    open(),
    open(),
    open(),
    paid(),
    paid(),
  ]);
  const refundId = await created(api.post('/v1/refund-requests', { payment_id: refundPaymentId, amount: 100 }));
  // refunds of an automatic-policy merchant, for the helpers that finish them
  const automatic = apiClient((await createTestMerchant({ policy: 'automatic' })).key);
  const automaticPayment = await created(
    automatic.post(
      `/v1/test-helpers/checkout-sessions/${await created(automatic.post('/v1/checkout-sessions', sessionBody()))}/pay`,
      {
        payment_method: 'card',
        card_number: '4242424242424242',
      },
    ),
  );
  const [toComplete, toFail] = await Promise.all(
    [0, 1].map(() => created(automatic.post('/v1/refund-requests', { payment_id: automaticPayment, amount: 100 }))),
  );
  const linkId = await created(api.post('/v1/payment-links', { name: 'Mug', amount: 1200, currency: 'USD' }));
  const endpointBody = { url: 'https://shop.example.com/hooks', events: ['*'] };
  const [endpointId, toDelete] = await Promise.all([
    created(api.post('/v1/webhook-endpoints', endpointBody)),
    created(api.post('/v1/webhook-endpoints', endpointBody)),
  ]);
  const eventId = (await api.get('/v1/events?limit=1')).body.data[0].id;

  const on: Record<string, () => Promise<ApiResponse>> = {
    createCheckoutSession: () => api.post('/v1/checkout-sessions', sessionBody()),
    listCheckoutSessions: () => api.get('/v1/checkout-sessions'),
    getCheckoutSession: () => api.get(`/v1/checkout-sessions/${sessionId}`),
    expireCheckoutSession: () => api.post(`/v1/checkout-sessions/${toExpire}/expire`),
    listPayments: () => api.get('/v1/payments'),
    getPayment: () => api.get(`/v1/payments/${paymentId}`),
    createRefundRequest: () => api.post('/v1/refund-requests', { payment_id: paymentId, amount: 100 }),
    listRefundRequests: () => api.get('/v1/refund-requests'),
    getRefundRequest: () => api.get(`/v1/refund-requests/${refundId}`),
    cancelRefundRequest: () => api.post(`/v1/refund-requests/${refundId}/cancel`),
    createPaymentLink: () => api.post('/v1/payment-links', { name: 'Mug', amount: 1200, currency: 'USD' }),
    listPaymentLinks: () => api.get('/v1/payment-links'),
    getPaymentLink: () => api.get(`/v1/payment-links/${linkId}`),
    updatePaymentLink: () => api.post(`/v1/payment-links/${linkId}`, { name: 'Big mug' }),
    createWebhookEndpoint: () => api.post('/v1/webhook-endpoints', endpointBody),
    listWebhookEndpoints: () => api.get('/v1/webhook-endpoints'),
    getWebhookEndpoint: () => api.get(`/v1/webhook-endpoints/${endpointId}`),
    deleteWebhookEndpoint: () => api.request('DELETE', `/v1/webhook-endpoints/${toDelete}`),
    rotateWebhookSecret: () => api.post(`/v1/webhook-endpoints/${endpointId}/rotate-secret`),
    listEvents: () => api.get('/v1/events'),
    getEvent: () => api.get(`/v1/events/${eventId}`),
    completeRefundRequest: () => automatic.post(`/v1/test-helpers/refund-requests/${toComplete}/complete`),
    failRefundRequest: () => automatic.post(`/v1/test-helpers/refund-requests/${toFail}/fail`),
    payCheckoutSession: () =>
      api.post(`/v1/test-helpers/checkout-sessions/${toPay}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      }),
  };
  for (const [operationId, call] of Object.entries(on)) calls.set(operationId, call);
});

describe('database round trips on the success path', () => {
  it('has a count for every operation', () => {
    const served = API_OPERATIONS.filter((operation) => operation.scope).map((operation) => operation.operationId);
    expect(Object.keys(ROUND_TRIPS).sort()).toEqual(served.sort());
  });

  it.each(Object.entries(ROUND_TRIPS))('%s makes %i', async (operationId, expected) => {
    const response = await calls.get(operationId)!();
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    expect(Number(response.headers.get('db-round-trips'))).toBe(expected);
  });
});
