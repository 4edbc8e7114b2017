import { z } from 'zod';
import type { Scope } from '@/lib/api-keys/scopes';
import { createCheckoutSessionInput, listCheckoutSessionsQuery } from '@/lib/checkout-sessions/schemas';
import { checkoutSessionList, checkoutSessionObject } from '@/lib/checkout-sessions/objects';
import { eventList, eventObject } from '@/lib/events/objects';
import { listEventsQuery } from '@/lib/events/schemas';
import type { IdKind } from '@/lib/ids';
import { paymentLinkList, paymentLinkObject } from '@/lib/payment-links/objects';
import { createPaymentLinkInput, listPaymentLinksQuery, updatePaymentLinkInput } from '@/lib/payment-links/schemas';
import { paymentList, paymentObject } from '@/lib/payments/objects';
import { listPaymentsQuery, payByCardInput, payByInteracInput, payByUsdcInput } from '@/lib/payments/schemas';
import { refundRequestList, refundRequestObject } from '@/lib/refunds/objects';
import { createRefundRequestInput, listRefundRequestsQuery } from '@/lib/refunds/schemas';
import {
  deletedWebhookEndpointObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecretObject,
} from '@/lib/webhooks/objects';
import { createWebhookEndpointInput, listWebhookEndpointsQuery } from '@/lib/webhooks/schemas';
import type { ErrorCode } from './error-codes';

// The route table: every /v1 endpoint with what its route file does (scope, idempotency, the zod schemas
// it parses with) and what it answers. The OpenAPI document and /docs are built from it;
// test/api/openapi-routes.test.ts holds it to the route files and the running server.

export type Idempotency = 'required' | 'optional' | 'none';

export type ApiOperation = {
  operationId: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI form: `{id}` for the `[id]` folder */
  path: string;
  tag: ApiTag;
  summary: string;
  description: string;
  /** null: no key needed */
  scope: Scope | null;
  idempotency: Idempotency;
  /** what the `{id}` of the path is */
  pathId?: IdKind;
  /**
   * The schema the route parses its body with; `required: false` for the action endpoints that take `{}`
   * or nothing. `component` names it in the document when several endpoints share it.
   */
  body?: { schema: z.ZodType; required: boolean; component?: string; example?: Record<string, unknown> };
  query?: z.ZodObject;
  success: { status: 200 | 201; schema: z.ZodType };
  /** the codes of this endpoint's own rules; responses.ts adds those every endpoint of its kind can answer */
  errors: ErrorCode[];
};

export const API_TAGS = [
  { name: 'Checkout sessions', description: 'A hosted page where a customer pays for one order.' },
  { name: 'Payments', description: 'What customers paid, or tried to. A succeeded payment is proof of payment.' },
  { name: 'Refund requests', description: 'Giving back part or all of a payment, through its life cycle.' },
  { name: 'Payment links', description: 'Shareable pages that sell a fixed amount, no code needed.' },
  { name: 'Webhook endpoints', description: 'URLs that receive signed events.' },
  { name: 'Events', description: 'Everything that happened, as the webhooks carried it.' },
  { name: 'Test helpers', description: 'Sandbox shortcuts for tests: act as the customer without a browser.' },
  { name: 'Reference', description: 'This document.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** The empty body of the action endpoints (…/expire, …/cancel, …/rotate-secret): `{}` or nothing. */
const emptyBody = { schema: z.strictObject({}), required: false, component: 'EmptyBody' };

/** The test helper's body: parsePayInput picks one of these by payment_method. */
const payInput = z.discriminatedUnion('payment_method', [payByCardInput, payByUsdcInput, payByInteracInput]);

const openApiDocumentObject = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('An OpenAPI 3.1 document');

export const API_OPERATIONS: ApiOperation[] = [
  {
    operationId: 'createCheckoutSession',
    method: 'POST',
    path: '/v1/checkout-sessions',
    tag: 'Checkout sessions',
    summary: 'Create a checkout session',
    description:
      'Starts a hosted checkout for an order: send the customer to the `url` of the answer. The order is found or made by `order_reference`; an unpaid order may have several sessions, and only one of them can ever be paid.',
    scope: 'checkout_sessions:write',
    idempotency: 'required',
    body: {
      schema: createCheckoutSessionInput,
      required: true,
      example: {
        order_reference: 'order-1001',
        currency: 'USD',
        items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
        shipping_amount: 500,
        tax_amount: 250,
        amount: 3750,
        return_url: 'https://shop.example.com/thanks',
        cancel_url: 'https://shop.example.com/cart',
      },
    },
    success: { status: 201, schema: checkoutSessionObject },
    errors: [
      'amount_mismatch',
      'url_not_approved',
      'payment_method_not_approved',
      'payment_method_unavailable',
      'order_already_paid',
    ],
  },
  {
    operationId: 'listCheckoutSessions',
    method: 'GET',
    path: '/v1/checkout-sessions',
    tag: 'Checkout sessions',
    summary: 'List checkout sessions',
    description: 'Newest first, optionally of one order or one status.',
    scope: 'payments:read',
    idempotency: 'none',
    query: listCheckoutSessionsQuery,
    success: { status: 200, schema: checkoutSessionList },
    errors: [],
  },
  {
    operationId: 'getCheckoutSession',
    method: 'GET',
    path: '/v1/checkout-sessions/{id}',
    tag: 'Checkout sessions',
    summary: 'Retrieve a checkout session',
    description:
      'Its status is current: a session read after `expires_at` is `expired`, whether or not the background sweep has run.',
    scope: 'payments:read',
    idempotency: 'none',
    pathId: 'checkoutSession',
    success: { status: 200, schema: checkoutSessionObject },
    errors: [],
  },
  {
    operationId: 'expireCheckoutSession',
    method: 'POST',
    path: '/v1/checkout-sessions/{id}/expire',
    tag: 'Checkout sessions',
    summary: 'Expire a checkout session',
    description: 'Closes an open session so it can no longer be paid, and sends `checkout_session.expired`.',
    scope: 'checkout_sessions:write',
    idempotency: 'optional',
    pathId: 'checkoutSession',
    body: emptyBody,
    success: { status: 200, schema: checkoutSessionObject },
    errors: ['checkout_session_not_open'],
  },
  {
    operationId: 'listPayments',
    method: 'GET',
    path: '/v1/payments',
    tag: 'Payments',
    summary: 'List payments',
    description: 'Newest first, optionally of one order or one status.',
    scope: 'payments:read',
    idempotency: 'none',
    query: listPaymentsQuery,
    success: { status: 200, schema: paymentList },
    errors: [],
  },
  {
    operationId: 'getPayment',
    method: 'GET',
    path: '/v1/payments/{id}',
    tag: 'Payments',
    summary: 'Retrieve a payment',
    description: 'How a merchant confirms an order was paid: the customer’s return to `return_url` alone is not proof.',
    scope: 'payments:read',
    idempotency: 'none',
    pathId: 'payment',
    success: { status: 200, schema: paymentObject },
    errors: [],
  },
  {
    operationId: 'createRefundRequest',
    method: 'POST',
    path: '/v1/refund-requests',
    tag: 'Refund requests',
    summary: 'Create a refund request',
    description:
      'Asks to refund part or all of a succeeded payment. Active refunds never exceed the payment, however many requests run at once. USDC payments need `crypto_refund_destination_note`; other methods refuse it.',
    scope: 'refund_requests:write',
    idempotency: 'required',
    body: {
      schema: createRefundRequestInput,
      required: true,
      example: { payment_id: 'pay_8bKpZr2xQmV4tN6sW1yHc0Ld', amount: 1500, reason: 'One T-shirt returned' },
    },
    success: { status: 201, schema: refundRequestObject },
    errors: ['resource_missing', 'payment_not_refundable', 'refund_exceeds_available'],
  },
  {
    operationId: 'listRefundRequests',
    method: 'GET',
    path: '/v1/refund-requests',
    tag: 'Refund requests',
    summary: 'List refund requests',
    description: 'Newest first, optionally of one payment or one status.',
    scope: 'refund_requests:read',
    idempotency: 'none',
    query: listRefundRequestsQuery,
    success: { status: 200, schema: refundRequestList },
    errors: [],
  },
  {
    operationId: 'getRefundRequest',
    method: 'GET',
    path: '/v1/refund-requests/{id}',
    tag: 'Refund requests',
    summary: 'Retrieve a refund request',
    description: 'Where the refund is in its life cycle.',
    scope: 'refund_requests:read',
    idempotency: 'none',
    pathId: 'refundRequest',
    success: { status: 200, schema: refundRequestObject },
    errors: [],
  },
  {
    operationId: 'cancelRefundRequest',
    method: 'POST',
    path: '/v1/refund-requests/{id}/cancel',
    tag: 'Refund requests',
    summary: 'Cancel a refund request',
    description: 'Withdraws a refund that is still `requested`; its amount is available again.',
    scope: 'refund_requests:write',
    idempotency: 'optional',
    pathId: 'refundRequest',
    body: emptyBody,
    success: { status: 200, schema: refundRequestObject },
    errors: ['refund_not_cancelable'],
  },
  {
    operationId: 'createPaymentLink',
    method: 'POST',
    path: '/v1/payment-links',
    tag: 'Payment links',
    summary: 'Create a payment link',
    description:
      'A shareable page that sells a fixed amount. Each payment makes its own order (`{id}-{n}`) and checkout session. With no `payment_methods`, the link offers every approved method that takes the currency at the time of payment.',
    scope: 'payment_links:write',
    idempotency: 'required',
    body: {
      schema: createPaymentLinkInput,
      required: true,
      example: {
        name: 'Gift card',
        amount: 2500,
        currency: 'CAD',
        description: 'A $25 gift card',
        after_payment_url: 'https://shop.example.com/thanks',
      },
    },
    success: { status: 201, schema: paymentLinkObject },
    errors: ['url_not_approved', 'payment_method_not_approved', 'payment_method_unavailable'],
  },
  {
    operationId: 'listPaymentLinks',
    method: 'GET',
    path: '/v1/payment-links',
    tag: 'Payment links',
    summary: 'List payment links',
    description: 'Newest first, optionally only the active or inactive ones.',
    scope: 'payment_links:read',
    idempotency: 'none',
    query: listPaymentLinksQuery,
    success: { status: 200, schema: paymentLinkList },
    errors: [],
  },
  {
    operationId: 'getPaymentLink',
    method: 'GET',
    path: '/v1/payment-links/{id}',
    tag: 'Payment links',
    summary: 'Retrieve a payment link',
    description: 'A link and its public `url`.',
    scope: 'payment_links:read',
    idempotency: 'none',
    pathId: 'paymentLink',
    success: { status: 200, schema: paymentLinkObject },
    errors: [],
  },
  {
    operationId: 'updatePaymentLink',
    method: 'POST',
    path: '/v1/payment-links/{id}',
    tag: 'Payment links',
    summary: 'Update a payment link',
    description:
      'Turns a link on or off, renames or redescribes it. Its price never changes: customers pay what was advertised.',
    scope: 'payment_links:write',
    idempotency: 'optional',
    pathId: 'paymentLink',
    body: { schema: updatePaymentLinkInput, required: true, example: { active: false } },
    success: { status: 200, schema: paymentLinkObject },
    errors: [],
  },
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/v1/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'Create a webhook endpoint',
    description:
      'Subscribes a URL to event types (or `["*"]` for all). The answer carries the signing secret, this once. URLs must be http or https; private, loopback and link-local addresses are refused unless the server allows them.',
    scope: 'webhook_endpoints:write',
    idempotency: 'required',
    body: {
      schema: createWebhookEndpointInput,
      required: true,
      example: {
        url: 'https://shop.example.com/api/webhooks',
        events: ['checkout_session.completed', 'refund.completed'],
        description: 'Order fulfilment',
      },
    },
    success: { status: 201, schema: webhookEndpointWithSecretObject },
    errors: [],
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/v1/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'List webhook endpoints',
    description: 'Newest first, without their secrets.',
    scope: 'webhook_endpoints:write',
    idempotency: 'none',
    query: listWebhookEndpointsQuery,
    success: { status: 200, schema: webhookEndpointList },
    errors: [],
  },
  {
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/v1/webhook-endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Retrieve a webhook endpoint',
    description: 'One endpoint, without its secret.',
    scope: 'webhook_endpoints:write',
    idempotency: 'none',
    pathId: 'webhookEndpoint',
    success: { status: 200, schema: webhookEndpointObject },
    errors: [],
  },
  {
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{id}',
    tag: 'Webhook endpoints',
    summary: 'Delete a webhook endpoint',
    description: 'Stops sending to it at once: its pending deliveries end as failed.',
    scope: 'webhook_endpoints:write',
    idempotency: 'none',
    pathId: 'webhookEndpoint',
    success: { status: 200, schema: deletedWebhookEndpointObject },
    errors: [],
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/v1/webhook-endpoints/{id}/rotate-secret',
    tag: 'Webhook endpoints',
    summary: 'Rotate a webhook secret',
    description:
      'Makes a new signing secret, shown this once. The old one keeps signing beside it for 24 hours, so receivers can switch without missing an event.',
    scope: 'webhook_endpoints:write',
    idempotency: 'optional',
    pathId: 'webhookEndpoint',
    body: emptyBody,
    success: { status: 200, schema: webhookEndpointWithSecretObject },
    errors: [],
  },
  {
    operationId: 'listEvents',
    method: 'GET',
    path: '/v1/events',
    tag: 'Events',
    summary: 'List events',
    description: 'Newest first, optionally of one type.',
    scope: 'events:read',
    idempotency: 'none',
    query: listEventsQuery,
    success: { status: 200, schema: eventList },
    errors: [],
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    path: '/v1/events/{id}',
    tag: 'Events',
    summary: 'Retrieve an event',
    description: 'Exactly the body its webhooks carried.',
    scope: 'events:read',
    idempotency: 'none',
    pathId: 'event',
    success: { status: 200, schema: eventObject },
    errors: [],
  },
  {
    operationId: 'payCheckoutSession',
    method: 'POST',
    path: '/v1/test-helpers/checkout-sessions/{id}/pay',
    tag: 'Test helpers',
    summary: 'Pay a checkout session',
    description:
      'Pays as a customer would on the hosted page, through the same code: a card (see the test cards), USDC, or Interac with an `outcome`. Answers with the payment, `succeeded` or `failed`; a decline leaves the session open.',
    scope: 'checkout_sessions:write',
    idempotency: 'required',
    pathId: 'checkoutSession',
    body: { schema: payInput, required: true, example: { payment_method: 'card', card_number: '4242424242424242' } },
    success: { status: 200, schema: paymentObject },
    errors: ['payment_method_not_offered', 'checkout_session_not_open', 'order_already_paid'],
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/v1/openapi.json',
    tag: 'Reference',
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of this API, built from the code that serves it. No key needed.',
    scope: null,
    idempotency: 'none',
    success: { status: 200, schema: openApiDocumentObject },
    errors: [],
  },
];
