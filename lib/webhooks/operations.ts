import { emptyBody, operation } from '@/lib/openapi/operation';
import {
  deletedWebhookEndpointObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecretObject,
} from './objects';
import { FAULTS_RULES } from './faults';
import { createWebhookEndpointInput, listWebhookEndpointsQuery, updateWebhookEndpointInput } from './schemas';

// The /v1/webhook-endpoints endpoints, as app/v1/webhook-endpoints/** serve them and /docs describes them.

export const createWebhookEndpointOperation = operation({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhook-endpoints',
  tag: 'Webhook endpoints',
  summary: 'Create a webhook endpoint',
  description:
    'Subscribes a URL to event types (or `["*"]` for all). The answer carries the signing secret, this once. URLs must be http or https; private, loopback and link-local addresses are refused unless the server allows them. `faults` turns on fault injection (see Update a webhook endpoint).',
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
});

export const listWebhookEndpointsOperation = operation({
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
});

export const getWebhookEndpointOperation = operation({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  path: '/v1/webhook-endpoints/{id}',
  tag: 'Webhook endpoints',
  summary: 'Retrieve a webhook endpoint',
  description: 'One endpoint, without its secret, with its `faults`.',
  scope: 'webhook_endpoints:write',
  idempotency: 'none',
  pathId: 'webhookEndpoint',
  success: { status: 200, schema: webhookEndpointObject },
  errors: [],
});

export const updateWebhookEndpointOperation = operation({
  operationId: 'updateWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhook-endpoints/{id}',
  tag: 'Webhook endpoints',
  summary: 'Update a webhook endpoint',
  description: `Changes the fields sent (\`url\`, under the same rules as at creation, \`events\`, \`description\`, \`status\`, \`faults\`); omitted fields, and omitted fields of \`faults\`, stay. A disabled endpoint gets no deliveries of events made while it is disabled. ${FAULTS_RULES}`,
  scope: 'webhook_endpoints:write',
  idempotency: 'optional',
  pathId: 'webhookEndpoint',
  body: {
    schema: updateWebhookEndpointInput,
    required: true,
    example: { faults: { duplicate_rate: 0.5, delay_seconds: 30, shuffle: true, seed: 42 } },
  },
  success: { status: 200, schema: webhookEndpointObject },
  errors: [],
});

export const deleteWebhookEndpointOperation = operation({
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
});

export const rotateWebhookSecretOperation = operation({
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
});
