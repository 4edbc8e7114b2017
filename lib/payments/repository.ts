import { z } from 'zod';
import { NEWEST_FIRST } from '@/lib/api/pagination';
import type { Db } from '@/lib/db';
import { referenceMatch } from '@/lib/db/page';
import { isId } from '@/lib/ids';
import type { Currency, PaymentMethod, Prisma } from '@/lib/generated/prisma/client';
import { countLimit } from '@/lib/db/page';

// Every query on payments. Their amount_reserved and amount_refunded move only through the relative
// UPDATEs below (and the refunds repository's reservation), never by writing a value read earlier.

export async function findPayment(database: Db, merchantId: string, id: string) {
  return database.payment.findFirst({ where: { id, merchantId } });
}

/** By id alone: for a payment already found under its merchant, read again inside a transaction. */
export async function findPaymentByIdOrThrow(database: Db, id: string) {
  return database.payment.findUniqueOrThrow({ where: { id } });
}

export async function findPaymentCursor(database: Db, merchantId: string, id: string) {
  return database.payment.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** One page of GET /v1/payments; `after` is the pagination's cursor condition. */
export async function findPaymentsPage(
  database: Db,
  merchantId: string,
  filters: { orderReference?: string; status?: 'succeeded' | 'failed' },
  page: { after: object; take: number },
) {
  const base = {
    merchantId,
    ...(filters.orderReference !== undefined ? { orderReference: filters.orderReference } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
  return database.payment.findMany({ where: { AND: [base, page.after] }, orderBy: NEWEST_FIRST, take: page.take });
}

/** Declined attempts on one session of an order; the caller holds the session's lock. */
export async function countDeclinedPayments(database: Db, orderId: string, checkoutSessionId: string) {
  return database.payment.count({ where: { orderId, checkoutSessionId, status: 'failed' } });
}

export async function insertPayment(database: Db, data: Prisma.PaymentUncheckedCreateInput) {
  return database.payment.create({ data });
}

/** Gives a refund's reserved amount back (declined, canceled or failed refund). */
export async function releasePaymentReservation(database: Db, paymentId: string, amount: number): Promise<void> {
  await database.$executeRaw`UPDATE "payments" SET "amount_reserved" = "amount_reserved" - ${amount} WHERE "id" = ${paymentId}`;
}

/** A completed refund's amount, added in the UPDATE itself so concurrent completions all count. */
export async function addPaymentRefunded(database: Db, paymentId: string, amount: number): Promise<void> {
  await database.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" + ${amount} WHERE "id" = ${paymentId}`;
}

/** A payment's status with its refunds folded in, as the dashboard shows it (lib/dashboard/payments.ts). */
export type PaymentListStatus = 'succeeded' | 'partially_refunded' | 'refunded' | 'failed';

export type PaymentSearch = {
  status?: PaymentListStatus;
  method?: PaymentMethod;
  currency?: Currency;
  createdAt?: { gte?: Date; lt?: Date };
  /** a payment id, a checkout session id, or part of an order reference */
  q?: string;
  skip: number;
  take: number;
};

/** The dashboard's list: one page of matches, newest first, and how many match in all. */
export async function searchPaymentRows(database: Db, merchantId: string, search: PaymentSearch) {
  const where: Prisma.PaymentWhereInput = {
    merchantId,
    ...(search.status ? statusCondition(database, search.status) : {}),
    ...(search.method ? { paymentMethod: search.method } : {}),
    ...(search.currency ? { currency: search.currency } : {}),
    ...(search.createdAt ? { createdAt: search.createdAt } : {}),
    ...(search.q ? { OR: matchingText(search.q) } : {}),
  };
  const [total, rows] = await Promise.all([
    database.payment.count({ where, orderBy: NEWEST_FIRST, take: countLimit(search.skip) }),
    database.payment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: search.skip,
      take: search.take,
    }),
  ]);
  return { total, rows };
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

/** An id finds its payment at once; other text is part of an order reference (README, "Performance"). */
function matchingText(q: string): Prisma.PaymentWhereInput[] {
  if (isId('payment', q)) return [{ id: q }];
  if (isId('checkoutSession', q)) return [{ checkoutSessionId: q }];
  return [{ orderReference: referenceMatch(q) }];
}
/** A payment with its session (and items, in order) and its refunds, newest first; null when not this merchant's. */
export async function findPaymentWithSessionAndRefunds(database: Db, merchantId: string, id: string) {
  return database.payment.findFirst({
    where: { id, merchantId },
    include: {
      checkoutSession: { include: { items: { orderBy: { position: 'asc' } } } },
      refundRequests: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
    },
  });
}

/** The session's other attempts, oldest first. */
export async function findOtherAttempts(
  database: Db,
  merchantId: string,
  checkoutSessionId: string,
  paymentId: string,
) {
  return database.payment.findMany({
    where: { merchantId, checkoutSessionId, id: { not: paymentId } },
    orderBy: { createdAt: 'asc' },
  });
}

const dailyFiguresRow = z.object({
  day: z.date(),
  currency: z.enum(['CAD', 'USD']),
  gross: z.bigint(),
  succeeded: z.bigint(),
  failed: z.bigint(),
  refunded: z.bigint(),
  refunds: z.bigint(),
});
export type DailyFiguresRow = z.infer<typeof dailyFiguresRow>;

/**
 * Home's figures in one statement: a row per day from firstDay to lastDay and per currency, each payment
 * and active refund (requested, processing, completed) on its day in timeZone, from `from` on. Read from
 * payment_figures (quarter hours, kept by triggers: see prisma/schema.prisma), not from the payments.
 */
export async function findDailyFigures(
  database: Db,
  merchantId: string,
  window: { firstDay: string; lastDay: string; from: Date; timeZone: string },
): Promise<DailyFiguresRow[]> {
  const { firstDay, lastDay, from, timeZone } = window;
  const rows = await database.$queryRaw<unknown[]>`
    WITH days AS (
      SELECT d::date AS day, c::"Currency" AS currency
      FROM generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') AS d
      CROSS JOIN unnest(ARRAY['CAD', 'USD']) AS c
    ),
    figures AS (
      SELECT (period_start AT TIME ZONE ${timeZone})::date AS day, currency,
             sum(gross)::bigint AS gross, sum(succeeded)::bigint AS succeeded, sum(failed)::bigint AS failed,
             sum(refunded)::bigint AS refunded, sum(refunds)::bigint AS refunds
      FROM payment_figures
      WHERE merchant_id = ${merchantId} AND period_start >= ${from}
      GROUP BY 1, 2
    )
    SELECT days.day, days.currency,
           coalesce(f.gross, 0) AS gross, coalesce(f.succeeded, 0) AS succeeded, coalesce(f.failed, 0) AS failed,
           coalesce(f.refunded, 0) AS refunded, coalesce(f.refunds, 0) AS refunds
    FROM days
    LEFT JOIN figures AS f ON f.day = days.day AND f.currency = days.currency
    ORDER BY days.day, days.currency`;
  return z.array(dailyFiguresRow).parse(rows);
}

/** A page of the attempts (succeeded and failed) made through one payment link, newest first; and their total. */
export async function countAndFindPaymentsOfLink(
  database: Db,
  merchantId: string,
  linkId: string,
  page: { skip: number; take: number },
) {
  const where: Prisma.PaymentWhereInput = { merchantId, paymentLinkId: linkId };
  const [total, rows] = await Promise.all([
    database.payment.count({ where, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.payment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}
