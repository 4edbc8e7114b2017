import { z } from 'zod';
import { checkoutSessionObject } from '@/lib/checkout-sessions/objects';
import { listOf, objectId, timestamp } from '@/lib/openapi/object-fields';
import { paymentObject } from '@/lib/payments/objects';
import { refundRequestObject } from '@/lib/refunds/objects';
import { EVENT_TYPES, type EventType } from './types';

// The event object (/docs#webhooks): the body of GET /v1/events/{id} and, byte for byte, of every webhook
// delivery. Typed by EventType, so a new event type does not compile until its payload is documented.

export const EVENT_PAYLOADS: Record<EventType, { object: z.ZodType; when: string }> = {
  'checkout_session.completed': { object: checkoutSessionObject, when: 'A customer paid a checkout session' },
  'checkout_session.expired': {
    object: checkoutSessionObject,
    when: 'A session expired: its 30 minutes passed, or the API expired it',
  },
  'payment.succeeded': { object: paymentObject, when: 'A payment succeeded' },
  'payment.failed': { object: paymentObject, when: 'A payment was declined; the session stays open' },
  'refund_request.created': { object: refundRequestObject, when: 'A refund was requested' },
  'refund_request.approved': {
    object: refundRequestObject,
    when: 'A refund was approved (by a person, or at once under the automatic policy) and sent to the provider',
  },
  'refund_request.declined': {
    object: refundRequestObject,
    when: 'A refund was declined; its amount is available again',
  },
  'refund_request.canceled': {
    object: refundRequestObject,
    when: 'A refund was canceled; its amount is available again',
  },
  'refund.completed': { object: refundRequestObject, when: 'The provider completed a refund' },
  'refund.failed': { object: refundRequestObject, when: 'The provider failed a refund; its amount is available again' },
};

export function eventObjectOf<T extends EventType>(type: T) {
  return z
    .strictObject({
      id: objectId('event', 'Also the webhook-id header of its deliveries: deduplicate on it'),
      object: z.literal('event'),
      type: z.literal(type),
      created_at: timestamp('When the change happened'),
      // the resource schema itself (not a described copy), so the document refers to its component
      data: z
        .strictObject({ object: EVENT_PAYLOADS[type].object })
        .describe('data.object: the resource as the API showed it right after the change'),
    })
    .describe(EVENT_PAYLOADS[type].when);
}

type EventObjectSchema = ReturnType<typeof eventObjectOf<EventType>>;

export const EVENT_OBJECTS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventObjectOf(type)])) as Record<
  EventType,
  EventObjectSchema
>;

export const eventObject = z
  .discriminatedUnion(
    'type',
    EVENT_TYPES.map((type) => EVENT_OBJECTS[type]) as [EventObjectSchema, ...EventObjectSchema[]],
  )
  .describe('Something that happened to a resource; its type says what data.object is');

export const eventList = listOf(eventObject);
