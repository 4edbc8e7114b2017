import type { Db } from '@/lib/db';

// Queries on checkout_sessions. (Started by the payments refactor for paying a session; the rest of the
// resource's queries belong here too.)

/** Locks the session's row for the caller's transaction; false when there is no such session. */
export async function lockCheckoutSession(database: Db, id: string): Promise<boolean> {
  // only whether a row came back is read
  const locked = await database.$queryRaw<unknown[]>`
    SELECT "id" FROM "checkout_sessions" WHERE "id" = ${id} FOR UPDATE`;
  return locked.length > 0;
}

export async function findCheckoutSessionWithItemsOrThrow(database: Db, id: string) {
  return database.checkoutSession.findUniqueOrThrow({ where: { id }, include: { items: true } });
}

/** The session paid by `paymentId`, with its items. */
export async function completeCheckoutSession(database: Db, id: string, paymentId: string, at: Date) {
  return database.checkoutSession.update({
    where: { id },
    data: { status: 'complete', paymentId, completedAt: at },
    include: { items: true },
  });
}

export async function countCheckoutSessions(database: Db, merchantId: string): Promise<number> {
  return database.checkoutSession.count({ where: { merchantId } });
}
