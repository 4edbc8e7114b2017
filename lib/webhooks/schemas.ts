import { z } from 'zod';
import { HTTP_URL_PATTERN, listQuerySchema } from '@/lib/core/parse';
import { EVENT_TYPES } from '@/lib/events/types';
import { faultsInput } from './faults';

// "*" subscribes to every type, now and later; it stands alone.
const subscribedEvents = z
  .array(z.enum([...EVENT_TYPES, '*']))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'must not repeat an event type')
  .refine((events) => events.length === 1 || !events.includes('*'), '"*" already means every event type; give it alone')
  .meta({ uniqueItems: true });

// lib/webhooks/url-policy.ts reads it: an absolute http or https URL (and then where it may point)
const endpointUrl = z.string().min(1).max(2048).meta({ format: 'uri', pattern: HTTP_URL_PATTERN });

export const createWebhookEndpointInput = z.strictObject({
  url: endpointUrl,
  events: subscribedEvents,
  description: z.string().max(500).nullish(),
  faults: faultsInput.optional(),
});

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointInput>;

export const listWebhookEndpointsQuery = listQuerySchema({});

/** An update: every field optional, the omitted ones (and omitted `faults` fields) stay as they are. */
export const updateWebhookEndpointInput = z.strictObject({
  url: endpointUrl.optional(),
  events: subscribedEvents.optional(),
  description: z.string().max(500).nullish(),
  status: z.enum(['enabled', 'disabled']).optional(),
  faults: faultsInput.optional(),
});

export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointInput>;
