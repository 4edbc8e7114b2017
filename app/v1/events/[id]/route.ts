import { apiRoute, ok, routes } from '@/lib/api/route';
import { serializeEvent } from '@/lib/events/serialize';
import { getEventOrThrow } from '@/lib/events/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/events/{id} – read one event, exactly as its webhooks carried it
  GET: apiRoute({ scope: 'events:read' }, async ({ db, merchantId, params }) =>
    ok(serializeEvent(await getEventOrThrow(db, merchantId, params.id))),
  ),
});
