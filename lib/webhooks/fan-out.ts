import type { Db } from '@/lib/db';
import { insertEventReturningSubscribers } from '@/lib/events/repository';
import { insertDeliveries } from './repository';

// The outbox's fan-out: an event gets one delivery row for every endpoint that is enabled and
// subscribed to its type when the event is written, in the event's own transaction. So an event is
// never committed without its deliveries, and an endpoint made a moment later does not get it.

/**
 * Writes the event and finds its subscribers in one statement, then their deliveries in a second one (none
 * when no endpoint listens, the usual case). Call it with the transaction that makes the change.
 */
export async function writeEventWithDeliveries(
  tx: Db,
  event: { id: string; merchantId: string; type: string; data: unknown },
): Promise<number> {
  const endpointIds = await insertEventReturningSubscribers(tx, event);
  if (endpointIds.length === 0) return 0;
  return insertDeliveries(tx, event, endpointIds);
}
