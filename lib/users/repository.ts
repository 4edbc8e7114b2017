import type { Db } from '@/lib/db';

// Every query on users.

export async function insertUser(
  database: Db,
  user: { id: string; merchantId: string; email: string; passwordHash: string },
) {
  return database.user.create({ data: user });
}

/** `email` as stored: trimmed and lowercase. */
export async function findUserByEmail(database: Db, email: string) {
  return database.user.findUnique({ where: { email } });
}

/** The signed-in user of a dashboard session, with the merchant it opens. */
export async function findUserWithMerchant(database: Db, id: string) {
  return database.user.findUnique({
    where: { id },
    select: {
      id: true,
      email: true,
      sessionVersion: true,
      merchant: { select: { id: true, name: true, timeZone: true, clockOffsetSeconds: true } },
    },
  });
}

/** Conditional on the version: only a cookie that is still valid can end the user's sessions. */
export async function bumpSessionVersion(database: Db, id: string, currentVersion: number): Promise<void> {
  await database.user.updateMany({
    where: { id, sessionVersion: currentVersion },
    data: { sessionVersion: { increment: 1 } },
  });
}
