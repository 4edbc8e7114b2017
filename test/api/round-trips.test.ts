import { beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { apiClient, createTestMerchant, sessionBody, type ApiResponse } from '../helpers';

// How many database round trips each /v1 endpoint makes on its success path (docs/performance.md), read
// from the Db-Round-Trips header the test server adds (DB_COUNT_ROUND_TRIPS). A change that adds a query to
// a request fails here until the table below, and docs/performance.md's, say why.

/** operationId → round trips of one successful call, the request log aside (it is written in batches later). */
const ROUND_TRIPS: Record<string, number> = {
  createCheckoutSession: 1,
  listCheckoutSessions: 1,
  getCheckoutSession: 1,
  expireCheckoutSession: 2,
  listPayments: 1,
  getPayment: 1,
  // the authorization as the process that made it remembers it (lib/payments/facts.ts), checked by the statement
  capturePayment: 1,
  cancelPayment: 1,
  // the payment's facts are remembered by the process that made it (lib/payments/facts.ts), else read first (2)
  createRefundRequest: 1,
  listRefundRequests: 1,
  getRefundRequest: 1,
  cancelRefundRequest: 2,
  createPaymentLink: 1,
  listPaymentLinks: 1,
  getPaymentLink: 1,
  updatePaymentLink: 2,
  createWebhookEndpoint: 1,
  listWebhookEndpoints: 1,
  getWebhookEndpoint: 1,
  // the endpoint read (the answer is built from it), then one statement that updates it and claims the key
  updateWebhookEndpoint: 2,
  deleteWebhookEndpoint: 1,
  rotateWebhookSecret: 2,
  listEvents: 1,
  // where the stream starts (the newest event's place); then it only listens until something is written
  streamEvents: 1,
  getEvent: 1,
  // the session read first (its rules and their messages), then one statement that pays it and claims the key
  payCheckoutSession: 2,
  completeRefundRequest: 2,
  failRefundRequest: 2,
  getTestClock: 1,
  // the advance claims the Idempotency-Key in its UPDATE of the merchant's offset (lib/test-clocks/repository.ts)
  advanceTestClock: 1,
};

let api: ReturnType<typeof apiClient>;
/** an automatic-policy merchant's, whose requested refunds the test helpers may finish */
let automatic: ReturnType<typeof apiClient>;

async function created(response: Promise<ApiResponse>): Promise<string> {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body.id;
}

const CARD = { payment_method: 'card', card_number: '4242424242424242' };
const endpointBody = { url: 'https://shop.example.com/hooks', events: ['*'] };
const linkBody = { name: 'Mug', amount: 1200, currency: 'USD' };

const openSession = (client = api) => created(client.post('/v1/checkout-sessions', sessionBody()));
const paidPayment = async (client = api) =>
  created(client.post(`/v1/test-helpers/checkout-sessions/${await openSession(client)}/pay`, CARD));
const authorizedPayment = async () => {
  const id = await created(api.post('/v1/checkout-sessions', { ...sessionBody(), capture_method: 'manual' }));
  return created(api.post(`/v1/test-helpers/checkout-sessions/${id}/pay`, CARD));
};
const requestedRefund = async (client = api) =>
  created(client.post('/v1/refund-requests', { payment_id: await paidPayment(client), amount: 100 }));

/** Each operation's measured call, after making what it needs (not measured). */
const MEASURED: Record<string, () => Promise<() => Promise<ApiResponse>>> = {
  createCheckoutSession: async () => () => api.post('/v1/checkout-sessions', sessionBody()),
  listCheckoutSessions: async () => () => api.get('/v1/checkout-sessions'),
  getCheckoutSession: async () => {
    const id = await openSession();
    return () => api.get(`/v1/checkout-sessions/${id}`);
  },
  expireCheckoutSession: async () => {
    const id = await openSession();
    return () => api.post(`/v1/checkout-sessions/${id}/expire`);
  },
  listPayments: async () => () => api.get('/v1/payments'),
  getPayment: async () => {
    const id = await paidPayment();
    return () => api.get(`/v1/payments/${id}`);
  },
  capturePayment: async () => {
    const id = await authorizedPayment();
    return () => api.post(`/v1/payments/${id}/capture`, { amount_to_capture: 100 });
  },
  cancelPayment: async () => {
    const id = await authorizedPayment();
    return () => api.post(`/v1/payments/${id}/cancel`);
  },
  createRefundRequest: async () => {
    const id = await paidPayment();
    return () => api.post('/v1/refund-requests', { payment_id: id, amount: 100 });
  },
  listRefundRequests: async () => () => api.get('/v1/refund-requests'),
  getRefundRequest: async () => {
    const id = await requestedRefund();
    return () => api.get(`/v1/refund-requests/${id}`);
  },
  cancelRefundRequest: async () => {
    const id = await requestedRefund();
    return () => api.post(`/v1/refund-requests/${id}/cancel`);
  },
  createPaymentLink: async () => () => api.post('/v1/payment-links', linkBody),
  listPaymentLinks: async () => () => api.get('/v1/payment-links'),
  getPaymentLink: async () => {
    const id = await created(api.post('/v1/payment-links', linkBody));
    return () => api.get(`/v1/payment-links/${id}`);
  },
  updatePaymentLink: async () => {
    const id = await created(api.post('/v1/payment-links', linkBody));
    return () => api.post(`/v1/payment-links/${id}`, { name: 'Big mug' });
  },
  createWebhookEndpoint: async () => () => api.post('/v1/webhook-endpoints', endpointBody),
  listWebhookEndpoints: async () => () => api.get('/v1/webhook-endpoints'),
  getWebhookEndpoint: async () => {
    const id = await created(api.post('/v1/webhook-endpoints', endpointBody));
    return () => api.get(`/v1/webhook-endpoints/${id}`);
  },
  deleteWebhookEndpoint: async () => {
    const id = await created(api.post('/v1/webhook-endpoints', endpointBody));
    return () => api.request('DELETE', `/v1/webhook-endpoints/${id}`);
  },
  updateWebhookEndpoint: async () => {
    const id = await created(api.post('/v1/webhook-endpoints', endpointBody));
    return () =>
      api.post(
        `/v1/webhook-endpoints/${id}`,
        { description: 'faults', faults: { duplicate_rate: 0.5, seed: 1 } },
        {
          idempotencyKey: `update-${id}`,
        },
      );
  },
  rotateWebhookSecret: async () => {
    const id = await created(api.post('/v1/webhook-endpoints', endpointBody));
    return () => api.post(`/v1/webhook-endpoints/${id}/rotate-secret`);
  },
  listEvents: async () => () => api.get('/v1/events'),
  // its answer, status and headers: the stream stays open (apiClient does not wait for it)
  streamEvents: async () => () => api.get('/v1/events/stream'),
  getEvent: async () => {
    const id = (await api.get('/v1/events?limit=1')).body.data[0].id;
    return () => api.get(`/v1/events/${id}`);
  },
  payCheckoutSession: async () => {
    const id = await openSession();
    return () => api.post(`/v1/test-helpers/checkout-sessions/${id}/pay`, CARD);
  },
  completeRefundRequest: async () => {
    const id = await requestedRefund(automatic);
    return () => automatic.post(`/v1/test-helpers/refund-requests/${id}/complete`);
  },
  failRefundRequest: async () => {
    const id = await requestedRefund(automatic);
    return () => automatic.post(`/v1/test-helpers/refund-requests/${id}/fail`);
  },
  getTestClock: async () => () => api.get('/v1/test-helpers/clock'),
  advanceTestClock: async () => {
    // a merchant of its own, whose key is already in memory: an advance makes every process read its keys again
    const client = apiClient((await createTestMerchant()).key);
    await client.get('/v1/test-helpers/clock');
    return () => client.post('/v1/test-helpers/clock/advance', { seconds: 60 });
  },
};

beforeAll(async () => {
  api = apiClient((await createTestMerchant({ policy: 'manual' })).key);
  automatic = apiClient((await createTestMerchant({ policy: 'automatic' })).key);
  await paidPayment(); // so that the lists and events have something to show
});

describe('database round trips on the success path', () => {
  it('has a count for every operation', () => {
    const served = API_OPERATIONS.filter((operation) => operation.scope).map((operation) => operation.operationId);
    expect(Object.keys(ROUND_TRIPS).sort()).toEqual(served.sort());
    expect(Object.keys(MEASURED).sort()).toEqual(served.sort());
  });

  // The least of up to three tries: the key and settings caches answer only while their change listener is
  // known to be current, so a server starved for a moment reads a key once more (lib/db/notified-cache.ts).
  it.each(Object.entries(ROUND_TRIPS))('%s makes %i', async (operationId, expected) => {
    const counts: number[] = [];
    while (counts.length < 3 && !counts.includes(expected)) {
      const response = await (await MEASURED[operationId]())();
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      counts.push(Number(response.headers.get('db-round-trips')));
    }
    expect(Math.min(...counts)).toBe(expected);
  });
});
