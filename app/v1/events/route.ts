import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { listEventsQuery } from '@/lib/events/schemas';
import { listEvents } from '@/lib/events/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/events – list events, newest first, optionally of one type
  GET: apiRoute({ scope: 'events:read' }, async ({ db, merchantId, query }) =>
    ok(await listEvents(db, merchantId, parse(listEventsQuery, query))),
  ),
});
