import { errors } from '@/lib/core/errors';
import type { RequestContext } from '@/lib/core/context';
import { paginate } from '@/lib/core/pagination';
import type { Db } from '@/lib/db';
import { isId, newId } from '@/lib/core/ids';
import { findEvent, findEventCursor, findEventsPage, insertEventWithDeliveries, type NewEvent } from './repository';
import type { ListEventsQuery } from './schemas';
import type { EventType } from './types';

export { EVENT_TYPES, type EventType } from './types';

/**
 * Writes an event into the outbox, with a delivery for every endpoint subscribed to it. Call it with the
 * transaction that makes the change it describes, so the event and its deliveries exist exactly when the
 * change does. `object` is the resource as the API shows it.
 */
export async function emitEvent(tx: Db, merchantId: string, type: EventType, object: unknown): Promise<string> {
  const event = newEvent(merchantId, type, object);
  await insertEventWithDeliveries(tx, event);
  return event.id;
}

/** An event about to be written by the statement of the change it describes (a repository's eventsWrittenAfter). */
export function newEvent(merchantId: string, type: EventType, object: unknown): NewEvent {
  return { id: newId('event'), merchantId, type, data: { object } };
}

export async function getEventOrThrow(context: RequestContext, id: string) {
  const { db: database, merchantId } = context;
  const event = isId('event', id) ? await findEvent(database, merchantId, id) : null;
  if (!event) throw errors.resourceMissing(`No such event: '${id}'`, 'id', 'This event was not found.');
  return event;
}

export async function listEvents(context: RequestContext, query: ListEventsQuery) {
  const { db: database, merchantId } = context;
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findEventCursor(database, merchantId, id),
    findPage: (page) => findEventsPage(database, merchantId, { type: query.type }, page),
  });
}
