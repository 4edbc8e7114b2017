import { apiRoute, routes, StreamedAnswer } from '@/lib/api/route';
import { streamEventsOperation } from '@/lib/events/operations';
import { openEventStream } from '@/lib/events/stream';

// a stream stays open: never prerendered or cached
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(streamEventsOperation, async ({ merchantId, query, request }) => {
    const lastEventId = request.headers.get('last-event-id') || undefined;
    return new StreamedAnswer(
      await openEventStream(merchantId, { types: query.types, lastEventId, signal: request.signal }),
    );
  }),
});
