import { operation } from '@/lib/openapi/operation';
import { eventList, eventObject } from './objects';
import { listEventsQuery, streamEventsQuery } from './schemas';

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

export const streamEventsOperation = operation({
  operationId: 'streamEvents',
  method: 'GET',
  path: '/v1/events/stream',
  tag: 'Events',
  summary: 'Stream events',
  description: [
    'Server-Sent Events (`text/event-stream`): each new event of the connection, whichever server process or worker made it, is one message — `id: evt_…`, `event: <type>`, `data: <the event, exactly as GET /v1/events/{id} answers it>` — in the order the events were written. `types=a,b` keeps only those types.',
    'To resume, send `Last-Event-ID: evt_…` (EventSource does on reconnecting): the stream starts right after that event, skipping nothing and repeating nothing. It must be an event of the last 24 hours, else the answer is `400 parameter_invalid` (param `Last-Event-ID`) and no stream: reconnect without it to start from now.',
    'A `: ping` comment comes at once and then every 15 seconds; the server ends a stream after an hour, and clients reconnect with Last-Event-ID. Errors before the stream starts (authentication, scope, parameters) are the usual JSON error bodies.',
    'Each server process holds at most 20 open streams of one account (the server’s `EVENT_STREAMS_PER_MERCHANT`) and 50 from one client address (`EVENT_STREAMS_PER_ADDRESS`); past either the answer is `429 rate_limited` with `Retry-After`, and the message names the limit. A stream ends within a second of its API key being revoked (or losing `events:read`).',
  ].join('\n\n'),
  scope: 'events:read',
  idempotency: 'none',
  query: streamEventsQuery,
  success: { status: 200, schema: eventObject, contentType: 'text/event-stream' },
  errors: [],
});
