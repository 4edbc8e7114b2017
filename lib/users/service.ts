import bcrypt from 'bcryptjs';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/core/ids';
import { bumpSessionVersion, findUserByEmail, findUserWithMerchant, insertUser } from './repository';

const BCRYPT_ROUNDS = 10;

export async function createUser(database: Db, input: { merchantId: string; email: string; password: string }) {
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
  return insertUser(database, {
    id: newId('user'),
    merchantId: input.merchantId,
    email: input.email.trim().toLowerCase(),
    passwordHash,
  });
}

/** The user for this e-mail and password, or null; never says which of the two was wrong. */
export async function verifyUserPassword(database: Db, email: string, password: string) {
  const user = await findUserByEmail(database, email.trim().toLowerCase());
  if (!user) {
    // spend the same time as a real comparison, so timing does not reveal which e-mails exist
    await bcrypt.compare(password, '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.n1jlB2ITeJ0/8oC1Y2HmpZrFmJYG');
    return null;
  }
  return (await bcrypt.compare(password, user.passwordHash)) ? user : null;
}

/** The user a dashboard session cookie names, with its merchant's name and zone; null when it is gone. */
export async function getSessionUser(database: Db, userId: string) {
  return findUserWithMerchant(database, userId);
}

/**
 * Ends every dashboard session of the user: cookies issued under `currentVersion` or before open nothing
 * from now on. Only a cookie that is still valid can do this, so an old copied one cannot sign the owner out.
 */
export async function endSessions(database: Db, userId: string, currentVersion: number): Promise<void> {
  await bumpSessionVersion(database, userId, currentVersion);
}
