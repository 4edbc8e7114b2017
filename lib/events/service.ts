import { errors } from '@/lib/api/errors';
import { NEWEST_FIRST, paginate } from '@/lib/api/pagination';
import type { Db } from '@/lib/db';
import { isId, newId } from '@/lib/ids';
import { writeEventWithDeliveries } from '@/lib/webhooks/fan-out';
import type { ListEventsQuery } from './schemas';
import { serializeEvent } from './serialize';
import type { EventType } from './types';

export { EVENT_TYPES, type EventType } from './types';

/**
 * Writes an event into the outbox, with a delivery for every endpoint subscribed to it. Call it with the
 * transaction that makes the change it describes, so the event and its deliveries exist exactly when the
 * change does. `object` is the resource as the API shows it.
 */
export async function emitEvent(tx: Db, merchantId: string, type: EventType, object: unknown): Promise<string> {
  const id = newId('event');
  await writeEventWithDeliveries(tx, { id, merchantId, type, data: { object } });
  return id;
}

export async function getEventOrThrow(database: Db, merchantId: string, id: string) {
  const event = isId('event', id) ? await database.event.findFirst({ where: { id, merchantId } }) : null;
  if (!event) throw errors.resourceMissing(`No such event: '${id}'`, 'id');
  return event;
}

export async function listEvents(database: Db, merchantId: string, query: ListEventsQuery) {
  const base = { merchantId, ...(query.type ? { type: query.type } : {}) };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => database.event.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } }),
    findPage: ({ where, take }) =>
      database.event.findMany({ where: { AND: [base, where] }, orderBy: NEWEST_FIRST, take }),
    serialize: serializeEvent,
  });
}
