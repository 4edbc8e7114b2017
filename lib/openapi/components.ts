import { z } from 'zod';
import { EVENT_OBJECTS } from '@/lib/events/objects';
import { EVENT_TYPES, type EventType } from '@/lib/events/types';
import { checkoutSessionList, checkoutSessionObject } from '@/lib/checkout-sessions/objects';
import { eventList, eventObject } from '@/lib/events/objects';
import { paymentLinkList, paymentLinkObject } from '@/lib/payment-links/objects';
import { paymentList, paymentObject } from '@/lib/payments/objects';
import { refundRequestList, refundRequestObject } from '@/lib/refunds/objects';
import {
  deletedWebhookEndpointObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecretObject,
} from '@/lib/webhooks/objects';
import { errorObject } from './error-codes';
import { componentSchemasOf, SCHEMA_REF_PREFIX, type JsonSchema } from './json-schema';
import { applyRequestNotes, REQUEST_FIELD_NOTES } from './request-notes';
import { defaultsIntoDescriptions, openObjects } from './schema-passes';
import { API_OPERATIONS, type ApiOperation } from './operations';

// components.schemas of the document: the response objects under their names, each event type's
// envelope, the error body (all open to new fields), and the request bodies of the operations (strict).

/** `checkout_session.completed` → `CheckoutSessionCompletedEvent` */
export function eventComponentName(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;
}

export function requestComponentName(operation: ApiOperation): string {
  return (
    operation.body?.component ??
    `${operation.operationId.charAt(0).toUpperCase()}${operation.operationId.slice(1)}Request`
  );
}

const responseObjects = z.registry<{ id: string }>();
const namedResponses: [z.ZodType, string][] = [
  [checkoutSessionObject, 'CheckoutSession'],
  [checkoutSessionList, 'CheckoutSessionList'],
  [paymentObject, 'Payment'],
  [paymentList, 'PaymentList'],
  [refundRequestObject, 'RefundRequest'],
  [refundRequestList, 'RefundRequestList'],
  [paymentLinkObject, 'PaymentLink'],
  [paymentLinkList, 'PaymentLinkList'],
  [webhookEndpointObject, 'WebhookEndpoint'],
  [webhookEndpointWithSecretObject, 'WebhookEndpointWithSecret'],
  [deletedWebhookEndpointObject, 'DeletedWebhookEndpoint'],
  [webhookEndpointList, 'WebhookEndpointList'],
  [eventObject, 'Event'],
  [eventList, 'EventList'],
  ...EVENT_TYPES.map((type): [z.ZodType, string] => [EVENT_OBJECTS[type], eventComponentName(type)]),
  [errorObject, 'Error'],
];
for (const [schema, id] of namedResponses) responseObjects.add(schema, { id });
// whatever else an operation answers with (this document's own shape) is named after the operation
for (const operation of API_OPERATIONS) {
  if (!responseObjects.has(operation.success.schema)) {
    responseObjects.add(operation.success.schema, {
      id: `${operation.operationId.charAt(0).toUpperCase()}${operation.operationId.slice(1)}Response`,
    });
  }
}

const requestBodies = z.registry<{ id: string }>();
for (const operation of API_OPERATIONS) {
  if (operation.body && !requestBodies.has(operation.body.schema))
    requestBodies.add(operation.body.schema, { id: requestComponentName(operation) });
}

export function componentRef(name: string): { $ref: string } {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

export function responseComponentName(schema: z.ZodType): string {
  const meta = responseObjects.get(schema);
  if (!meta) throw new Error('a response schema of the operations has no component name');
  return meta.id;
}

export function buildComponentSchemas(): Record<string, JsonSchema> {
  const requests = componentSchemasOf(requestBodies, 'input');
  for (const [name, notes] of Object.entries(REQUEST_FIELD_NOTES)) {
    if (requests[name]) applyRequestNotes(requests[name], notes);
  }
  const responses = componentSchemasOf(responseObjects, 'output');
  return {
    ...Object.fromEntries(Object.entries(responses).map(([name, schema]) => [name, openObjects(schema)])),
    ...Object.fromEntries(Object.entries(requests).map(([name, schema]) => [name, defaultsIntoDescriptions(schema)])),
  };
}
