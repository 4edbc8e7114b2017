import type { Db } from '@/lib/db';

// Queries on events. (Started by the payments refactor for the dashboard's reads; the rest of the
// resource's queries belong here too.)

/** The events whose data.object.id is one of `objectIds`, oldest first, without their other columns. */
export async function findEventsAboutObjects(database: Db, merchantId: string, objectIds: string[]) {
  return database.event.findMany({
    where: { merchantId, OR: objectIds.map((id) => ({ data: { path: ['object', 'id'], equals: id } })) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, type: true, createdAt: true, data: true },
  });
}

/** The newest events, newest first. */
export async function findRecentEvents(database: Db, merchantId: string, limit: number) {
  return database.event.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}
