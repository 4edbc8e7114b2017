import { z } from 'zod';
import {
  createCheckoutSessionOperation,
  expireCheckoutSessionOperation,
  getCheckoutSessionOperation,
  listCheckoutSessionsOperation,
} from '@/lib/checkout-sessions/operations';
import { getEventOperation, listEventsOperation, streamEventsOperation } from '@/lib/events/operations';
import {
  createPaymentLinkOperation,
  getPaymentLinkOperation,
  listPaymentLinksOperation,
  updatePaymentLinkOperation,
} from '@/lib/payment-links/operations';
import {
  cancelPaymentOperation,
  capturePaymentOperation,
  getPaymentOperation,
  listPaymentsOperation,
  payCheckoutSessionOperation,
} from '@/lib/payments/operations';
import {
  cancelRefundRequestOperation,
  completeRefundRequestOperation,
  createRefundRequestOperation,
  failRefundRequestOperation,
  getRefundRequestOperation,
  listRefundRequestsOperation,
} from '@/lib/refunds/operations';
import { advanceTestClockOperation, getTestClockOperation } from '@/lib/test-clocks/operations';
import {
  createWebhookEndpointOperation,
  deleteWebhookEndpointOperation,
  getWebhookEndpointOperation,
  listWebhookEndpointsOperation,
  updateWebhookEndpointOperation,
  rotateWebhookSecretOperation,
} from '@/lib/webhooks/operations';
import { operation, type ApiOperation } from './operation';

// Every /v1 operation, in the order /docs shows them. Each is declared beside its resource and served by its
// route file through apiRoute; test/api/openapi-routes.test.ts checks that the route files serve exactly these.

const openApiDocumentObject = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('An OpenAPI 3.1 document');

/** GET /v1/openapi.json is public and not an apiRoute, so its declaration lives here. */
export const getOpenApiDocumentOperation = operation({
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
});

export const API_OPERATIONS = [
  createCheckoutSessionOperation,
  listCheckoutSessionsOperation,
  getCheckoutSessionOperation,
  expireCheckoutSessionOperation,
  listPaymentsOperation,
  getPaymentOperation,
  capturePaymentOperation,
  cancelPaymentOperation,
  createRefundRequestOperation,
  listRefundRequestsOperation,
  getRefundRequestOperation,
  cancelRefundRequestOperation,
  createPaymentLinkOperation,
  listPaymentLinksOperation,
  getPaymentLinkOperation,
  updatePaymentLinkOperation,
  createWebhookEndpointOperation,
  listWebhookEndpointsOperation,
  getWebhookEndpointOperation,
  updateWebhookEndpointOperation,
  deleteWebhookEndpointOperation,
  rotateWebhookSecretOperation,
  listEventsOperation,
  streamEventsOperation,
  getEventOperation,
  payCheckoutSessionOperation,
  completeRefundRequestOperation,
  failRefundRequestOperation,
  getTestClockOperation,
  advanceTestClockOperation,
  getOpenApiDocumentOperation,
] as ApiOperation[];

export { API_TAGS, type ApiOperation, type ApiTag, type Idempotency } from './operation';
