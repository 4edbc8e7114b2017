import { countAndFindSessions, findSessionWithItemsAndPayments } from './repository';
import { effectiveStatus } from './serialize';
import type { RequestContext } from '@/lib/core/context';
import { findEventsAboutObject } from '@/lib/events/repository';
import { isId } from '@/lib/core/ids';
import { PAGE_SIZE } from '@/lib/dashboard/list-params';

// Checkout sessions as the dashboard lists and shows them. Status is the one the API reports: an open
// session past expires_at is expired even before the worker's sweep writes it, in the merchant's time (its
// test clock, lib/test-clocks/service.ts).

export const SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export async function searchCheckoutSessions(
  context: RequestContext,
  filters: { status?: SessionStatus; q?: string; page: number },
) {
  const { db: database, merchantId, now: at } = context;
  const { total, rows } = await countAndFindSessions(
    database,
    merchantId,
    { status: filters.status, q: filters.q, at },
    { skip: (filters.page - 1) * PAGE_SIZE, take: PAGE_SIZE },
  );
  return { total, rows: rows.map((session) => ({ ...session, status: effectiveStatus(session, at) })) };
}

/** A session with its items, every payment attempt on it and its events; null when not this merchant's. */
export async function getCheckoutSessionDetail(context: RequestContext, sessionId: string) {
  const { db: database, merchantId } = context;
  if (!isId('checkoutSession', sessionId)) return null;
  const session = await findSessionWithItemsAndPayments(database, merchantId, sessionId);
  if (!session) return null;
  const events = await findEventsAboutObject(database, merchantId, session.id);
  return { session: { ...session, status: effectiveStatus(session, context.now) }, events };
}
