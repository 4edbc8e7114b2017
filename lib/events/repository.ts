import { NEWEST_FIRST } from '@/lib/core/pagination';
import type { Db } from '@/lib/db';
import { compile, cte, type Cte, type Fragment, params, raw, run, sql as statementSql } from '@/lib/db/statement';
import { countLimit } from '@/lib/db/page';
import { ID_PREFIXES } from '@/lib/core/ids';
import { connectionNow } from '@/lib/test-clocks/repository';

// Every query on events. The insert is on the path of every change that emits one: one statement that also
// writes the event's deliveries (the outbox's fan-out). An event gets one delivery for every endpoint that is
// enabled and subscribed to its type (or to '*') when it is written, in the transaction or statement of the
// change it describes: so it is never committed without its deliveries, and an endpoint made a moment later
// does not get it. A delivery's first attempt is due its endpoint's fault delay_seconds after the event;
// an endpoint with a fault seed numbers its deliveries in event order (numbered: the row's update waits
// for a concurrent event's, so each number is taken once), which lib/webhooks/faults.ts hashes.

/** The stream's order (a bigint, which JSON and the dashboard's props cannot carry): only the stream reads it. */
const INTERNAL = { seq: true } as const;

export type NewEvent = { id: string; merchantId: string; type: string; data: unknown };

/** The values of eventsWrittenAfter's statements. */
export type EventValues = { eventIds: string[]; eventMerchantId: string; eventTypes: string[]; eventData: string[] };

const event = params<EventValues>({
  eventIds: 'text[]',
  eventMerchantId: 'text',
  eventTypes: 'text[]',
  eventData: 'text[]',
});

/** The values of eventsWrittenAfter: events written by one statement are one merchant's, in the order given. */
export function eventParams(...events: NewEvent[]): EventValues {
  const eventMerchantId = events[0]?.merchantId;
  if (eventMerchantId === undefined || events.some((one) => one.merchantId !== eventMerchantId))
    throw new Error('eventParams takes one or more events of one merchant');
  return {
    eventIds: events.map((one) => one.id),
    eventMerchantId,
    eventTypes: events.map((one) => one.type),
    eventData: events.map((one) => JSON.stringify(one.data)),
  };
}

/**
 * The CTEs that write events (eventParams) and their deliveries, in a statement of their own or in the
 * statement of the change `after`: written exactly when `after` wrote a row. `objectFields`, a jsonb object
 * the statement reads, is merged into each event's data.object: what only the database knows without
 * another round trip.
 */
export function eventsWrittenAfter(after?: Cte, objectFields?: Fragment<never>): Cte<EventValues>[] {
  // the events, and their deliveries, are at the connection's time (its test clock); a delivery's first
  // attempt waits its endpoint's fault delay (lib/webhooks/faults.ts)
  const subscribed = (type: ReturnType<typeof raw>) => statementSql`e."merchant_id" = ${event.eventMerchantId}
      AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[${type}, '*']`;
  const only = after ? statementSql`WHERE EXISTS (SELECT 1 FROM ${after})` : statementSql``;
  const data = objectFields
    ? statementSql`jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || ${objectFields})`
    : statementSql`v."data"::jsonb`;
  // written in the order given, so that events.seq (the stream's order) and the fault numbers follow it
  const newEvent = cte(
    'new_event',
    statementSql`
    INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
    SELECT v."id", ${event.eventMerchantId}, v."type", ${data}, ${connectionNow(event.eventMerchantId)}
    FROM unnest(${event.eventIds}, ${event.eventTypes}, ${event.eventData}) WITH ORDINALITY AS v("id", "type", "data", "position")
    ${only}
    ORDER BY v."position"
    RETURNING "id", "type", "created_at", "seq"`,
  );
  const numbered = cte(
    'numbered',
    statementSql`
    UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
    FROM (
      SELECT e."id", count(*) AS "count" FROM ${newEvent} AS ev JOIN "webhook_endpoints" AS e ON ${subscribed(raw('ev."type"'))}
      WHERE e."fault_seed" IS NOT NULL GROUP BY e."id"
    ) AS n
    WHERE e."id" = n."id"
    RETURNING e."id", e."fault_sequence" - n."count" AS "before"`,
  );
  const newDeliveries = cte(
    'new_deliveries',
    statementSql`
    INSERT INTO "webhook_deliveries" ("id", "event_id", "event_type", "endpoint_id", "next_attempt_at", "created_at", "fault_number")
    SELECT '${raw(ID_PREFIXES.webhookDelivery)}' || left(replace(gen_random_uuid()::text, '-', ''), 24), ev."id", ev."type",
           e."id", ev."created_at" + make_interval(secs => e."fault_delay_seconds"), ev."created_at",
           n."before" + row_number() OVER (PARTITION BY e."id" ORDER BY ev."seq")
    FROM ${newEvent} AS ev JOIN "webhook_endpoints" AS e ON ${subscribed(raw('ev."type"'))}
      LEFT JOIN ${numbered} AS n ON n."id" = e."id"`,
  );
  return [newEvent, numbered, newDeliveries];
}

const INSERT_EVENT_WITH_DELIVERIES = compile<EventValues>('insert-event', statementSql`SELECT 1`, {
  writes: eventsWrittenAfter(),
});

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [INSERT_EVENT_WITH_DELIVERIES];

/** Writes the event and its deliveries in one statement. */
export async function insertEventWithDeliveries(database: Db, newEvent: NewEvent): Promise<void> {
  await run(database, INSERT_EVENT_WITH_DELIVERIES, eventParams(newEvent));
}

export async function findEvent(database: Db, merchantId: string, id: string) {
  return database.event.findFirst({ where: { id, merchantId }, omit: INTERNAL });
}

/** The event a delivery sends, whoever's it is (the delivery was made for its merchant). */
export async function findEventById(database: Db, id: string) {
  return database.event.findUniqueOrThrow({ where: { id }, omit: INTERNAL });
}

/** The cursor of the API's list: the merchant's event's id and creation time. */
export async function findEventCursor(database: Db, merchantId: string, id: string) {
  return database.event.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** A page of the API's list, newest first; `page.where` is the pagination's own condition. */
export async function findEventsPage(
  database: Db,
  merchantId: string,
  filters: { type?: string },
  page: { where: object; take: number },
) {
  const base = { merchantId, ...(filters.type ? { type: filters.type } : {}) };
  return database.event.findMany({
    where: { AND: [base, page.where] },
    orderBy: NEWEST_FIRST,
    take: page.take,
    omit: INTERNAL,
  });
}

/** The dashboard's list, a page at a time, with the total. */
export async function countAndFindEvents(
  database: Db,
  merchantId: string,
  filters: { type?: string },
  page: { skip: number; take: number },
) {
  const where = { merchantId, ...(filters.type ? { type: filters.type } : {}) };
  const [total, rows] = await Promise.all([
    database.event.count({ where, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.event.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
      omit: INTERNAL,
    }),
  ]);
  return { total, rows };
}

/** Where a stream that starts now begins: the place of the merchant's newest event in the written order, or 0. */
export async function findLatestEventSeq(database: Db, merchantId: string): Promise<bigint> {
  const newest = await database.event.findFirst({
    where: { merchantId },
    orderBy: { seq: 'desc' },
    select: { seq: true },
  });
  return newest?.seq ?? 0n;
}

/** The place in the written order of the merchant's event `id`, when it was made at or after `since`. */
export async function findEventSeqSince(database: Db, merchantId: string, id: string, since: Date) {
  const event = await database.event.findFirst({
    where: { id, merchantId, createdAt: { gte: since } },
    select: { seq: true },
  });
  return event?.seq;
}

/**
 * A stream's next events, in the order they were written: those written after `afterSeq`, and those named
 * in `ids` (committed after a later one was read), of the given types; at most `limit`.
 */
export async function findStreamEvents(
  database: Db,
  merchantId: string,
  options: { afterSeq: bigint; ids: string[]; types?: readonly string[]; limit: number },
) {
  const after = [{ seq: { gt: options.afterSeq } }, ...(options.ids.length ? [{ id: { in: options.ids } }] : [])];
  return database.event.findMany({
    where: { merchantId, OR: after, ...(options.types ? { type: { in: [...options.types] } } : {}) },
    orderBy: { seq: 'asc' },
    take: options.limit,
  });
}

/** The events named, in the order they were written: each new event, read once for a process's open streams. */
export async function findEventsByIds(database: Db, ids: string[]) {
  return database.event.findMany({ where: { id: { in: ids } }, orderBy: { seq: 'asc' } });
}

/** The events about one object (data.object.id), oldest first, for the dashboard's timelines. */
export async function findEventsAboutObject(database: Db, merchantId: string, objectId: string) {
  return database.event.findMany({
    where: { merchantId, data: { path: ['object', 'id'], equals: objectId } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, type: true, createdAt: true },
  });
}

// ---- for lib/payments/dashboard.ts and lib/dashboard/overview.ts

/** The events about any of these objects (data.object.id), oldest first, with their data. */
export async function findEventsAboutObjects(database: Db, merchantId: string, objectIds: string[]) {
  return database.event.findMany({
    where: { merchantId, OR: objectIds.map((id) => ({ data: { path: ['object', 'id'], equals: id } })) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, type: true, createdAt: true, data: true },
  });
}

/** The newest events, for Home's "Recent activity". */
export async function findRecentEvents(database: Db, merchantId: string, limit: number) {
  return database.event.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    omit: INTERNAL,
  });
}

/**
 * Up to `limit` of the events made before `cutoff`, oldest first: a batch of the worker's purge. Their
 * webhook deliveries and those deliveries' attempts go with them (ON DELETE CASCADE).
 */
export async function deleteEventsBefore(database: Db, cutoff: Date, limit: number): Promise<number> {
  return database.$executeRaw`
    DELETE FROM "events" WHERE "id" IN (
      SELECT "id" FROM "events" WHERE "created_at" < ${cutoff} ORDER BY "created_at" LIMIT ${limit})`;
}
