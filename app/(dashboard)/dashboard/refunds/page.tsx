import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ActionAnnouncer } from '@/components/dashboard/action-announcer';
import { EmptyState } from '@/components/dashboard/empty-state';
import { LiveRefresh } from '@/components/dashboard/live-refresh';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { RefundsTable } from '@/components/dashboard/refunds-table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { classNames } from '@/components/ui/class-names';
import { RefundIcon } from '@/components/ui/icons';
import { Notice } from '@/components/ui/notice';
import { requireMerchant } from '@/lib/auth/session';
import type { RequestContext } from '@/lib/core/context';
import { statusLabel } from '@/lib/dashboard/format';
import { hrefWith, oneOf, PAGE_SIZE, pageNumber, type SearchParams } from '@/lib/dashboard/list-params';
import { isRefundOnItsWay, REFUND_STATUSES, searchRefunds } from '@/lib/refunds/dashboard';
import type { RefundStatus } from '@/lib/generated/prisma/client';
import { getRefundPolicy } from '@/lib/merchants/service';
import { approveRefundAction, cancelRefundAction, declineRefundAction } from './actions';
import { COUNT_LIMIT } from '@/lib/db/page';

export const metadata: Metadata = { title: 'Refunds' };

const PATH = '/dashboard/refunds';

export default async function RefundsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { context } = await requireMerchant();
  const params = await searchParams;
  const filters = { status: oneOf(params, 'status', REFUND_STATUSES), page: pageNumber(params) };
  const refundPolicy = await getRefundPolicy(context);
  return (
    <>
      <PageHeader
        title="Refunds"
        description={
          refundPolicy === 'manual'
            ? 'Your refund policy is manual: requested refunds wait here until you approve or decline them.'
            : 'Your refund policy is automatic: requested refunds are authorized at once and completed by the provider.'
        }
      />
      <Suspense
        key={JSON.stringify(filters)}
        fallback={
          <Panel flush>
            <TableSkeleton label="Loading refunds" />
          </Panel>
        }
      >
        <RefundResults context={context} filters={filters} policy={refundPolicy} />
      </Suspense>
    </>
  );
}

async function RefundResults({
  context,
  filters,
  policy,
}: {
  context: RequestContext;
  filters: { status?: RefundStatus; page: number };
  policy: 'automatic' | 'manual';
}) {
  const { total, rows, counts } = await searchRefunds(context, filters);
  const all = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const tabs: { status?: RefundStatus; label: string; count: number }[] = [
    { label: 'All', count: all },
    ...REFUND_STATUSES.map((status) => ({ status, label: statusLabel(status), count: counts[status] })),
  ];
  // watched across every tab: a refund that completes moves between them
  const onItsWay = REFUND_STATUSES.some((status) => counts[status] > 0 && isRefundOnItsWay({ status }, policy));
  return (
    <div className="space-y-4">
      <LiveRefresh active={onItsWay} />
      {policy === 'manual' && counts.requested > 0 && filters.status !== 'requested' && (
        <Notice tone="info">
          {counts.requested} refund{counts.requested === 1 ? ' waits' : 's wait'} for your approval.{' '}
          <Link href={`${PATH}?status=requested`} className="font-medium underline">
            Review them
          </Link>
        </Notice>
      )}
      <Panel flush>
        <nav aria-label="Refund status" className="flex gap-1 overflow-x-auto border-b border-gray-100 px-3 pt-2">
          {tabs.map((tab) => {
            const active = tab.status === filters.status;
            return (
              <Link
                key={tab.label}
                href={hrefWith(PATH, {}, { status: tab.status })}
                aria-current={active ? 'page' : undefined}
                className={classNames(
                  '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                  active ? 'border-accent-600 text-accent-700' : 'border-transparent text-gray-600 hover:text-gray-900',
                )}
              >
                {tab.label}
                <span className={classNames('rounded-full px-1.5 text-xs', active ? 'bg-accent-50' : 'bg-gray-100')}>
                  {tab.count}
                  {tab.count >= COUNT_LIMIT && '+'}
                </span>
              </Link>
            );
          })}
        </nav>
        <ActionAnnouncer>
          {total === 0 ? (
            <EmptyState
              icon={<RefundIcon />}
              title={filters.status ? `No ${filters.status} refunds` : 'No refunds yet'}
            >
              Refund a payment from its page in Payments, or with POST /v1/refund-requests. Requests appear here with
              their status.
            </EmptyState>
          ) : (
            <>
              <RefundsTable
                refunds={rows}
                policy={policy}
                actions={{ approve: approveRefundAction, decline: declineRefundAction, cancel: cancelRefundAction }}
              />
              <Pagination
                page={filters.page}
                pageSize={PAGE_SIZE}
                total={total}
                hrefFor={(page) => hrefWith(PATH, { status: filters.status }, { page })}
              />
            </>
          )}
        </ActionAnnouncer>
      </Panel>
    </div>
  );
}
