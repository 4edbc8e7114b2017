import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';

// The outbox's fan-out: an event gets one delivery row for every endpoint that is enabled and
// subscribed to its type when the event is written, in the event's own transaction. So an event is
// never committed without its deliveries, and an endpoint made a moment later does not get it.

export async function createDeliveriesForEvent(tx: Db, event: { id: string; merchantId: string; type: string }): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { merchantId: event.merchantId, status: 'enabled', deletedAt: null, events: { hasSome: [event.type, '*'] } },
    select: { id: true },
  });
  if (endpoints.length === 0) return 0;
  const { count } = await tx.webhookDelivery.createMany({
    data: endpoints.map((endpoint) => ({
      id: newId('webhookDelivery'),
      eventId: event.id,
      eventType: event.type,
      endpointId: endpoint.id,
      nextAttemptAt: new Date(),
    })),
  });
  return count;
}
