import { sql, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';

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
  const endpoints = await sql<{ id: string }>(tx, 'insert-event', INSERT_EVENT_RETURNING_SUBSCRIBERS, [
    event.id,
    event.merchantId,
    event.type,
    JSON.stringify(event.data),
  ]);
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

const INSERT_EVENT_RETURNING_SUBSCRIBERS = `
  WITH event AS (
    INSERT INTO "events" ("id", "merchant_id", "type", "data") VALUES ($1, $2, $3, $4::jsonb) RETURNING "id"
  )
  SELECT e."id" FROM "webhook_endpoints" AS e, event
  WHERE e."merchant_id" = $2 AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[$3::text, '*']`;
