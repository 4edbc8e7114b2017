import { apiRoute, routes } from '@/lib/http/route';
import { getEventOperation } from '@/lib/events/operations';
import { serializeEvent } from '@/lib/events/serialize';
import { getEventOrThrow } from '@/lib/events/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getEventOperation, async ({ context, params }) =>
    serializeEvent(await getEventOrThrow(context, params.id)),
  ),
});
