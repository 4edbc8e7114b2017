import { cache } from 'react';
import { db } from '@/lib/db';
import { getSessionUser } from '@/lib/users/service';

/**
 * The user a session cookie names, with the session version they are at: a cookie opens nothing unless it
 * was issued under that version (signing out moves it on). Read once per request, for next-auth's
 * session callback (which /api/auth/session answers with) and for the dashboard's pages alike.
 */
export const currentSessionUser = cache(async (userId: string) => getSessionUser(await db(), userId));

/** Whether a cookie of `userId` issued under `sessionVersion` is still a signed-in session. */
export async function isCurrentSession(userId: string | null | undefined, sessionVersion: unknown): Promise<boolean> {
  if (!userId) return false;
  const user = await currentSessionUser(userId);
  return user !== null && user.sessionVersion === sessionVersion;
}
