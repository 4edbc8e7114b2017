import type { Db } from '@/lib/db';
import type { Currency, PaymentMethod, PaymentStatus, Prisma } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/ids';
import { amountRefundable } from '@/lib/payments/serialize';
import { UTC, zonedDayRange } from '@/lib/time-zone';
import { PAGE_SIZE } from './list-params';
import { buildTimeline } from './timeline';

// Payments as the dashboard lists and shows them. Every query is scoped by the merchant: an id of
// another merchant finds nothing, exactly like an id that does not exist.

/**
 * A payment's status as the dashboard shows and filters it: a succeeded payment whose money went back is
 * "refunded" (all of it) or "partially_refunded", as on Stripe's dashboard. "succeeded" keeps all of its
 * money. Only completed refunds count (amount_refunded); one still on its way leaves the status as it is.
 */
export const PAYMENT_STATUSES = ['succeeded', 'partially_refunded', 'refunded', 'failed'] as const;
export type PaymentListStatus = (typeof PAYMENT_STATUSES)[number];

export function paymentListStatus(payment: {
  status: PaymentStatus;
  amount: number;
  amountRefunded: number;
}): PaymentListStatus {
  if (payment.status !== 'succeeded' || payment.amountRefunded === 0) return payment.status;
  return payment.amountRefunded >= payment.amount ? 'refunded' : 'partially_refunded';
}
export const PAYMENT_METHODS = ['card', 'usdc', 'interac'] as const satisfies readonly PaymentMethod[];
export const CURRENCIES = ['CAD', 'USD'] as const satisfies readonly Currency[];

export type PaymentFilters = {
  status?: PaymentListStatus;
  method?: PaymentMethod;
  currency?: Currency;
  /** YYYY-MM-DD, whole days in timeZone, inclusive */
  from?: string;
  to?: string;
  /** the dashboard's zone (lib/dashboard/viewer-time-zone.ts); UTC when not given */
  timeZone?: string;
  /** a payment id, a checkout session id, or part of an order reference */
  q?: string;
  page: number;
};

export async function searchPayments(database: Db, merchantId: string, filters: PaymentFilters) {
  const where: Prisma.PaymentWhereInput = {
    merchantId,
    ...(filters.status ? statusCondition(database, filters.status) : {}),
    ...(filters.method ? { paymentMethod: filters.method } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(filters.from || filters.to
      ? { createdAt: zonedDayRange(filters.from, filters.to, filters.timeZone ?? UTC) }
      : {}),
    ...(filters.q ? { OR: matchingText(filters.q) } : {}),
  };
  const [total, rows] = await Promise.all([
    database.payment.count({ where }),
    database.payment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (filters.page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    }),
  ]);
  return { total, rows: rows.map((payment) => ({ ...payment, amountRefundable: amountRefundable(payment) })) };
}

/** The same rule as paymentListStatus, as a condition on the payment row itself (two columns compared, no join). */
function statusCondition(database: Db, status: PaymentListStatus): Prisma.PaymentWhereInput {
  const amount = database.payment.fields.amount;
  switch (status) {
    case 'succeeded':
      return { status: 'succeeded', amountRefunded: 0 };
    case 'partially_refunded':
      return { status: 'succeeded', amountRefunded: { gt: 0, lt: amount } };
    case 'refunded':
      return { status: 'succeeded', amountRefunded: { gte: amount } };
    case 'failed':
      return { status: 'failed' };
  }
}

function matchingText(q: string): Prisma.PaymentWhereInput[] {
  return [{ id: q }, { checkoutSessionId: q }, { orderReference: { contains: q, mode: 'insensitive' } }];
}

/**
 * A payment with its session, the other attempts on that session (linked, not told), its refunds and its
 * own timeline; null when not this merchant's.
 */
export async function getPaymentDetail(database: Db, merchantId: string, paymentId: string) {
  if (!isId('payment', paymentId)) return null;
  const payment = await database.payment.findFirst({
    where: { id: paymentId, merchantId },
    include: {
      checkoutSession: { include: { items: { orderBy: { position: 'asc' } } } },
      refundRequests: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
    },
  });
  if (!payment) return null;
  const refundIds = payment.refundRequests.map((refund) => refund.id);
  const [otherAttempts, found] = await Promise.all([
    database.payment.findMany({
      where: { merchantId, checkoutSessionId: payment.checkoutSessionId, id: { not: payment.id } },
      orderBy: { createdAt: 'asc' },
    }),
    database.event.findMany({
      where: {
        merchantId,
        // the session's own events (completed) belong to the attempt that paid it, not to a failed one
        OR: [payment.id, ...(payment.status === 'succeeded' ? [payment.checkoutSessionId] : []), ...refundIds].map(
          (id) => ({
            data: { path: ['object', 'id'], equals: id },
          }),
        ),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, type: true, createdAt: true, data: true },
    }),
  ]);
  const events = found.map(({ data, ...event }) => ({ ...event, objectId: objectIdOf(data) }));
  return {
    payment,
    session: payment.checkoutSession,
    refunds: payment.refundRequests,
    otherAttempts,
    events,
    amountRefundable: amountRefundable(payment),
    timeline: buildTimeline({ payment, session: payment.checkoutSession, refunds: payment.refundRequests, events }),
  };
}

function objectIdOf(data: unknown): string | undefined {
  const object = (data as { object?: { id?: unknown } } | null)?.object;
  return typeof object?.id === 'string' ? object.id : undefined;
}

export type PaymentDetail = NonNullable<Awaited<ReturnType<typeof getPaymentDetail>>>;
