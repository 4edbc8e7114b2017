import { operation } from '@/lib/openapi/operation';
import { eventList, eventObject } from './objects';
import { listEventsQuery } from './schemas';

// The /v1/events endpoints, as app/v1/events/** serve them and /docs describes them.

export const listEventsOperation = operation({
  operationId: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  tag: 'Events',
  summary: 'List events',
  description:
    'Newest first, optionally of one type. Events are kept 30 days by default (the server’s `RETENTION_DAYS`), their webhook deliveries with them.',
  scope: 'events:read',
  idempotency: 'none',
  query: listEventsQuery,
  success: { status: 200, schema: eventList },
  errors: [],
});

export const getEventOperation = operation({
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
});
