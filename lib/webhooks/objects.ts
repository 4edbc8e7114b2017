import { z } from 'zod';
import { EVENT_TYPES } from '@/lib/events/types';
import { WebhookEndpointStatus } from '@/lib/generated/prisma/enums';
import { listOf, objectId, timestamp } from '@/lib/openapi/object-fields';
import { faultsObject } from './faults';

// The webhook_endpoint object (/docs#objects): the documented shapes of serializeWebhookEndpoint and of
// deleteWebhookEndpoint's answer.

export const webhookEndpointObject = z
  .strictObject({
    id: objectId('webhookEndpoint'),
    object: z.literal('webhook_endpoint'),
    url: z.string().describe('Where events are POSTed'),
    description: z.string().nullable(),
    events: z
      .array(z.enum([...EVENT_TYPES, '*']))
      .describe('The event types sent here; ["*"] is every type, now and later'),
    status: z.enum(WebhookEndpointStatus),
    faults: faultsObject,
    created_at: timestamp('When it was made'),
  })
  .describe('A URL subscribed to events. Its secret is shown only when it is made or rotated.');

export const webhookEndpointWithSecretObject = webhookEndpointObject
  .extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      .describe('The signing secret: shown this once, keep it'),
  })
  .describe('A webhook endpoint with its signing secret: the answer to creation and rotation only.');

export const deletedWebhookEndpointObject = z.strictObject({
  id: objectId('webhookEndpoint'),
  object: z.literal('webhook_endpoint'),
  deleted: z.literal(true),
});

export const webhookEndpointList = listOf(webhookEndpointObject);
