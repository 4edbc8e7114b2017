import type { RequestContext } from '@/lib/core/context';
import { COUNT_LIMIT } from '@/lib/db/page';
import type { RefundStatus } from '@/lib/generated/prisma/client';
import { countRefundsByStatus, countRefundsIn, hasRefundsIn, searchRefundRows } from './repository';
import { getRefundPolicy } from '@/lib/merchants/service';
import { PAGE_SIZE } from '@/lib/dashboard/list-params';

// Refund requests by status, for the Refunds page and its tabs.

/**
 * A refund the page should watch: the provider is completing it, or the automatic policy is about to
 * authorize it. One waiting for a person's approval is not watched: nothing happens to it on its own.
 */
export function isRefundOnItsWay(refund: { status: RefundStatus }, policy: 'automatic' | 'manual'): boolean {
  return refund.status === 'processing' || (refund.status === 'requested' && policy === 'automatic');
}

/** Whether any of the merchant’s refunds is on its way (isRefundOnItsWay): a count that stops at the first. */
export async function hasRefundsOnTheirWay(context: RequestContext): Promise<boolean> {
  const { db: database, merchantId } = context;
  const refundPolicy = await getRefundPolicy(context);
  const statuses: RefundStatus[] = refundPolicy === 'automatic' ? ['requested', 'processing'] : ['processing'];
  return hasRefundsIn(database, merchantId, statuses);
}

/** Up to this many waiting refunds are counted for the sidebar and Home; more reads "99+". */
export const AWAITING_COUNT_LIMIT = 100;

/**
 * Refunds that wait for a person's approval (the manual policy's requested ones), for Home and the sidebar's
 * Refunds item; under the automatic policy none waits for anyone. Counted up to AWAITING_COUNT_LIMIT.
 */
export async function countRefundsAwaitingApproval(context: RequestContext): Promise<number> {
  const { db: database, merchantId } = context;
  if ((await getRefundPolicy(context)) !== 'manual') return 0;
  return countRefundsIn(database, merchantId, 'requested', AWAITING_COUNT_LIMIT);
}

export const REFUND_STATUSES = [
  'requested',
  'processing',
  'completed',
  'failed',
  'declined',
  'canceled',
] as const satisfies readonly RefundStatus[];

export async function searchRefunds(context: RequestContext, filters: { status?: RefundStatus; page: number }) {
  const { db: database, merchantId } = context;
  const [{ total, rows }, grouped] = await Promise.all([
    searchRefundRows(database, merchantId, {
      status: filters.status,
      skip: (filters.page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    }),
    countRefundsByStatus(database, merchantId, COUNT_LIMIT),
  ]);
  const counts = Object.fromEntries(
    REFUND_STATUSES.map((status) => [status, grouped.find((row) => row.status === status)?.count ?? 0]),
  ) as Record<RefundStatus, number>;
  return { total, rows, counts };
}
