import { getServerSession } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { connectionContext, type RequestContext } from '@/lib/core/context';
import { db } from '@/lib/db';
import { REQUESTED_PATH_HEADER, signInAddress } from '@/lib/dashboard/return-path';
import { authOptions } from './options';
import { currentSessionUser } from './session-user';

// Who is signed in, for dashboard pages and server actions. The session cookie names a user and the
// session version it was issued under; the merchant comes from the database, so a deleted user's cookie,
// or one issued before the user signed out, opens nothing.

export type DashboardSession = {
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  /** the zone chosen in Settings; null: the browser's (lib/dashboard/viewer-time-zone.ts) */
  merchantTimeZone: string | null;
  /** the merchant's test clock offset when the session was read (lib/test-clocks) */
  clockOffsetSeconds: number;
};

/** A signed-in merchant's session, with the context its pages and actions call the services with. */
export type MerchantSession = DashboardSession & { context: RequestContext };

/** Once per request, however many layouts, pages and actions ask. */
export const getDashboardSession = cache(async (): Promise<DashboardSession | null> => {
  const session = await getServerSession(authOptions());
  if (!session?.userId) return null;
  const user = await currentSessionUser(session.userId);
  if (!user || user.sessionVersion !== session.sessionVersion) return null;
  return {
    userId: user.id,
    email: user.email,
    merchantId: user.merchant.id,
    merchantName: user.merchant.name,
    merchantTimeZone: user.merchant.timeZone,
    clockOffsetSeconds: user.merchant.clockOffsetSeconds,
  };
});

/**
 * The signed-in user's merchant, and the context to act for it with, at its connection's time (its test clock, as
 * over its API key); anyone else is sent to the sign-in page, which brings them back here.
 */
export async function requireMerchant(): Promise<MerchantSession> {
  const session = await getDashboardSession();
  if (!session) redirect(signInAddress((await headers()).get(REQUESTED_PATH_HEADER)));
  return { ...session, context: connectionContext(await db(), session.merchantId, session.clockOffsetSeconds) };
}
