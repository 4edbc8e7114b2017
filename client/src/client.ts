import { Transport, type SandboxConfig } from './http.js';
import { methodMaker } from './methods.js';
import { verifyWebhook } from './webhooks.js';

// The client's surface, one line per /v1 operation (lib/openapi/operations.ts lists them; the client's
// coverage test fails when one has no method here). Each line's path types the method from the document.

function resources(transport: Transport) {
  const m = methodMaker(transport);
  return {
    checkoutSessions: {
      create: m.post('/v1/checkout-sessions'),
      list: m.list('/v1/checkout-sessions'),
      retrieve: m.getById('/v1/checkout-sessions/{id}'),
      expire: m.postById('/v1/checkout-sessions/{id}/expire'),
    },
    payments: {
      list: m.list('/v1/payments'),
      retrieve: m.getById('/v1/payments/{id}'),
      capture: m.postById('/v1/payments/{id}/capture'),
      cancel: m.postById('/v1/payments/{id}/cancel'),
    },
    refundRequests: {
      create: m.post('/v1/refund-requests'),
      list: m.list('/v1/refund-requests'),
      retrieve: m.getById('/v1/refund-requests/{id}'),
      cancel: m.postById('/v1/refund-requests/{id}/cancel'),
    },
    paymentLinks: {
      create: m.post('/v1/payment-links'),
      list: m.list('/v1/payment-links'),
      retrieve: m.getById('/v1/payment-links/{id}'),
      update: m.postById('/v1/payment-links/{id}'),
    },
    webhookEndpoints: {
      create: m.post('/v1/webhook-endpoints'),
      list: m.list('/v1/webhook-endpoints'),
      retrieve: m.getById('/v1/webhook-endpoints/{id}'),
      del: m.deleteById('/v1/webhook-endpoints/{id}'),
      update: m.postById('/v1/webhook-endpoints/{id}'),
      rotateSecret: m.postById('/v1/webhook-endpoints/{id}/rotate-secret'),
    },
    events: {
      list: m.list('/v1/events'),
      retrieve: m.getById('/v1/events/{id}'),
      stream: m.stream('/v1/events/stream', 'Event'),
    },
    testHelpers: {
      checkoutSessions: {
        pay: m.postById('/v1/test-helpers/checkout-sessions/{id}/pay'),
      },
      refundRequests: {
        complete: m.postById('/v1/test-helpers/refund-requests/{id}/complete'),
        fail: m.postById('/v1/test-helpers/refund-requests/{id}/fail'),
      },
      clock: {
        retrieve: m.get('/v1/test-helpers/clock'),
        advance: m.post('/v1/test-helpers/clock/advance'),
      },
    },
    openapi: {
      retrieve: m.get('/v1/openapi.json'),
    },
  };
}

type Resources = ReturnType<typeof resources>;

/**
 * A client of the Sandbox Payments API.
 *
 *     const sandbox = new Sandbox({ apiKey: process.env.SANDBOX_API_KEY!, baseUrl: 'http://localhost:3000' });
 *     const session = await sandbox.checkoutSessions.create({ order_reference: 'order-1001', … });
 */
export class Sandbox {
  readonly checkoutSessions: Resources['checkoutSessions'];
  readonly payments: Resources['payments'];
  readonly refundRequests: Resources['refundRequests'];
  readonly paymentLinks: Resources['paymentLinks'];
  readonly webhookEndpoints: Resources['webhookEndpoints'];
  readonly events: Resources['events'];
  readonly testHelpers: Resources['testHelpers'];
  readonly openapi: Resources['openapi'];
  /** `verify(rawBody, headers, secret)`: no request, so no key needed (see verifyWebhook) */
  readonly webhooks = { verify: verifyWebhook };

  constructor(config: SandboxConfig) {
    const all = resources(new Transport(config));
    this.checkoutSessions = all.checkoutSessions;
    this.payments = all.payments;
    this.refundRequests = all.refundRequests;
    this.paymentLinks = all.paymentLinks;
    this.webhookEndpoints = all.webhookEndpoints;
    this.events = all.events;
    this.testHelpers = all.testHelpers;
    this.openapi = all.openapi;
  }
}
