import { now } from '@/lib/clock';
import { effectiveStatus } from '@/lib/checkout-sessions/serialize';
import type { Db } from '@/lib/db';
import type { Prisma } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/ids';
import { PAGE_SIZE } from './list-params';

// Checkout sessions as the dashboard lists and shows them. Status is the one the API reports: an open
// session past expires_at is expired even before the worker's sweep writes it.

export const SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

function statusWhere(status: SessionStatus | undefined, at: Date): Prisma.CheckoutSessionWhereInput {
  if (status === 'open') return { status: 'open', expiresAt: { gt: at } };
  if (status === 'expired') return { OR: [{ status: 'expired' }, { status: 'open', expiresAt: { lte: at } }] };
  if (status === 'complete') return { status: 'complete' };
  return {};
}

export async function searchCheckoutSessions(
  database: Db,
  merchantId: string,
  filters: { status?: SessionStatus; q?: string; page: number },
) {
  const at = now();
  const where: Prisma.CheckoutSessionWhereInput = {
    AND: [
      { merchantId },
      statusWhere(filters.status, at),
      filters.q ? { OR: [{ id: filters.q }, { orderReference: { contains: filters.q, mode: 'insensitive' } }] } : {},
    ],
  };
  const [total, rows] = await Promise.all([
    database.checkoutSession.count({ where }),
    database.checkoutSession.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (filters.page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    }),
  ]);
  return { total, rows: rows.map((session) => ({ ...session, status: effectiveStatus(session, at) })) };
}

/** A session with its items, every payment attempt on it and its events; null when not this merchant's. */
export async function getCheckoutSessionDetail(database: Db, merchantId: string, sessionId: string) {
  if (!isId('checkoutSession', sessionId)) return null;
  const session = await database.checkoutSession.findFirst({
    where: { id: sessionId, merchantId },
    include: { items: { orderBy: { position: 'asc' } }, payments: { orderBy: { createdAt: 'asc' } } },
  });
  if (!session) return null;
  const events = await database.event.findMany({
    where: { merchantId, data: { path: ['object', 'id'], equals: session.id } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, type: true, createdAt: true },
  });
  return { session: { ...session, status: effectiveStatus(session) }, events };
}
