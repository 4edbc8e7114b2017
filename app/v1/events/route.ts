import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { listEventsOperation } from '@/lib/events/operations';
import { serializeEvent } from '@/lib/events/serialize';
import { listEvents } from '@/lib/events/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(listEventsOperation, async ({ context, query }) =>
    listObject(await listEvents(context, query), serializeEvent),
  ),
});
