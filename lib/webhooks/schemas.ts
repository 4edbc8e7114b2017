import { z } from 'zod';
import { listQuerySchema } from '@/lib/api/parse';
import { EVENT_TYPES } from '@/lib/events/types';

// "*" subscribes to every type, now and later; it stands alone.
const subscribedEvents = z
  .array(z.enum([...EVENT_TYPES, '*']))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'must not repeat an event type')
  .refine(
    (events) => events.length === 1 || !events.includes('*'),
    '"*" already means every event type; give it alone',
  );

export const createWebhookEndpointInput = z.strictObject({
  url: z.string().min(1).max(2048),
  events: subscribedEvents,
  description: z.string().max(500).nullish(),
});

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointInput>;

export const listWebhookEndpointsQuery = listQuerySchema({});
