import { apiRoute, routes, StreamedAnswer } from '@/lib/http/route';
import { streamEventsOperation } from '@/lib/events/operations';
import { openEventStream } from '@/lib/events/stream';
import { clientAddressOf } from '@/lib/server/client-address';

// a stream stays open: never prerendered or cached
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(streamEventsOperation, async ({ merchantId, key, query, request }) => {
    const lastEventId = request.headers.get('last-event-id') || undefined;
    return new StreamedAnswer(
      await openEventStream(merchantId, {
        keyId: key.id,
        address: clientAddressOf(request.headers),
        types: query.types,
        lastEventId,
        signal: request.signal,
      }),
    );
  }),
});
