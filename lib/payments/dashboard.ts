import type { RequestContext } from '@/lib/core/context';
import { findEventsAboutObjects } from '@/lib/events/repository';
import type { Currency, PaymentMethod, PaymentStatus } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import {
  findOtherAttempts,
  findPaymentWithSessionAndRefunds,
  searchPaymentRows,
  type PaymentListStatus,
} from './repository';
import { amountRefundable } from './serialize';
import { findPaymentLinkNames } from '@/lib/payment-links/repository';
import { orderLabel } from '@/lib/dashboard/format';
import { UTC, zonedDayRange } from '@/lib/core/time-zone';
import { PAGE_SIZE } from '@/lib/dashboard/list-params';
import { buildTimeline } from './dashboard-timeline';

// Payments as the dashboard lists and shows them. Every query is scoped by the merchant: an id of
// another merchant finds nothing, exactly like an id that does not exist.

/**
 * A payment's status as the dashboard shows and filters it: a succeeded payment whose money went back is
 * "refunded" (all it captured) or "partially_refunded", as on Stripe's dashboard. "succeeded" keeps all of its
 * money. Only completed refunds count (amount_refunded); one still on its way leaves the status as it is.
 * An authorization waiting for its capture reads "Uncaptured" (requires_capture); one released, "Canceled".
 */
export const PAYMENT_STATUSES = [
  'succeeded',
  'partially_refunded',
  'refunded',
  'requires_capture',
  'canceled',
  'failed',
] as const satisfies readonly PaymentListStatus[];
export type { PaymentListStatus };

export function paymentListStatus(payment: {
  status: PaymentStatus;
  amountCaptured: number;
  amountRefunded: number;
}): PaymentListStatus {
  if (payment.status !== 'succeeded' || payment.amountRefunded === 0) return payment.status;
  // against what was captured: an authorization captured in part and refunded in full is refunded
  return payment.amountRefunded >= payment.amountCaptured ? 'refunded' : 'partially_refunded';
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
  /** a payment id, a checkout session id, or part of an order reference or of a customer e-mail */
  q?: string;
  page: number;
};

export async function searchPayments(context: RequestContext, filters: PaymentFilters) {
  const { db: database, merchantId } = context;
  const { total, rows } = await searchPaymentRows(database, merchantId, {
    status: filters.status,
    method: filters.method,
    currency: filters.currency,
    ...(filters.from || filters.to
      ? { createdAt: zonedDayRange(filters.from, filters.to, filters.timeZone ?? UTC) }
      : {}),
    q: filters.q,
    skip: (filters.page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
  });
  const linkNames = await findPaymentLinkNames(
    database,
    merchantId,
    rows.flatMap((payment) => (payment.paymentLinkId ? [payment.paymentLinkId] : [])),
  );
  return {
    total,
    rows: rows.map((payment) => ({
      ...payment,
      amountRefundable: amountRefundable(payment),
      orderLabel: orderLabel(payment.orderReference, linkNames.get(payment.paymentLinkId ?? '')),
    })),
  };
}

/**
 * A payment with its session, the other attempts on that session (linked, not told), its refunds and its
 * own timeline; null when not this merchant's.
 */
export async function getPaymentDetail(context: RequestContext, paymentId: string) {
  const { db: database, merchantId } = context;
  if (!isId('payment', paymentId)) return null;
  const payment = await findPaymentWithSessionAndRefunds(database, merchantId, paymentId);
  if (!payment) return null;
  const refundIds = payment.refundRequests.map((refund) => refund.id);
  const [otherAttempts, found, linkNames] = await Promise.all([
    findOtherAttempts(database, merchantId, payment.checkoutSessionId, payment.id),
    findEventsAboutObjects(database, merchantId, [
      payment.id,
      // the session's own events (completed) belong to the attempt that paid it (or authorized), not to a failed one
      ...(payment.status !== 'failed' ? [payment.checkoutSessionId] : []),
      ...refundIds,
    ]),
    findPaymentLinkNames(database, merchantId, payment.paymentLinkId ? [payment.paymentLinkId] : []),
  ]);
  const events = found.map(({ data, ...event }) => ({ ...event, objectId: objectIdOf(data) }));
  return {
    payment,
    session: payment.checkoutSession,
    refunds: payment.refundRequests,
    otherAttempts,
    events,
    amountRefundable: amountRefundable(payment),
    orderLabel: orderLabel(payment.orderReference, linkNames.get(payment.paymentLinkId ?? '')),
    timeline: buildTimeline({ payment, session: payment.checkoutSession, refunds: payment.refundRequests, events }),
  };
}

function objectIdOf(data: unknown): string | undefined {
  const object = (data as { object?: { id?: unknown } } | null)?.object;
  return typeof object?.id === 'string' ? object.id : undefined;
}

export type PaymentDetail = NonNullable<Awaited<ReturnType<typeof getPaymentDetail>>>;
