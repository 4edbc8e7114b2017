import { getServerSession } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
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
};

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
  };
});

/** The signed-in user's merchant; anyone else is sent to the sign-in page, which brings them back here. */
export async function requireMerchant(): Promise<DashboardSession> {
  const session = await getDashboardSession();
  if (!session) redirect(signInAddress((await headers()).get(REQUESTED_PATH_HEADER)));
  return session;
}
