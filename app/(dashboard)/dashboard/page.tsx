import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { LiveRefresh } from '@/components/dashboard/live-refresh';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { PaymentsTable } from '@/components/dashboard/payments-table';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { SetupChecklist } from '@/components/dashboard/setup-checklist';
import { StatCard } from '@/components/dashboard/stat-card';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { VolumeChart } from '@/components/dashboard/volume-chart';
import { CardIcon, EventIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { classNames } from '@/components/ui/class-names';
import { requireMerchant } from '@/lib/auth/session';
import type { RequestContext } from '@/lib/core/context';
import { describeEvent, eventSubjectHref } from '@/lib/events/dashboard';
import { formatMoney } from '@/lib/dashboard/format';
import { oneOf, type SearchParams } from '@/lib/dashboard/list-params';
import { getOverview, getSetupProgress, listRecentActivity, OVERVIEW_DAYS } from '@/lib/dashboard/overview';
import { CURRENCIES, searchPayments } from '@/lib/payments/dashboard';
import { countRefundsAwaitingApproval, hasRefundsOnTheirWay } from '@/lib/refunds/dashboard';
import { Notice } from '@/components/ui/notice';
import { getViewerTimeZone } from '@/lib/dashboard/viewer-time-zone';

export const metadata: Metadata = { title: 'Home' };

export default async function HomePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantName, context } = await requireMerchant();
  const currency = oneOf(await searchParams, 'currency', CURRENCIES);
  return (
    <>
      <PageHeader title="Home" description={`${merchantName} over the last ${OVERVIEW_DAYS} days, in the sandbox.`} />
      <div className="space-y-6">
        <Suspense fallback={null}>
          <Setup context={context} />
        </Suspense>
        <Suspense fallback={null}>
          <Live context={context} />
        </Suspense>
        <Suspense fallback={null}>
          <RefundsWaiting context={context} />
        </Suspense>
        <Suspense fallback={<FiguresSkeleton />}>
          <Figures context={context} currency={currency} />
        </Suspense>
        <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
          <Panel
            title="Recent payments"
            action={
              <Link href="/dashboard/payments" className="text-sm font-medium text-accent-700 hover:underline">
                View all
              </Link>
            }
            className="min-w-0"
            flush
          >
            <Suspense fallback={<TableSkeleton rows={5} label="Loading payments" />}>
              <RecentPayments context={context} />
            </Suspense>
          </Panel>
          <Panel
            title="Recent activity"
            action={
              <Link href="/dashboard/developers/events" className="text-sm font-medium text-accent-700 hover:underline">
                All events
              </Link>
            }
            className="min-w-0"
            flush
          >
            <Suspense fallback={<TableSkeleton rows={5} label="Loading activity" />}>
              <RecentActivity context={context} />
            </Suspense>
          </Panel>
        </div>
      </div>
    </>
  );
}

async function Setup({ context }: { context: RequestContext }) {
  return <SetupChecklist progress={await getSetupProgress(context)} />;
}

/** Figures, payments and activity follow refunds the provider is completing. */
async function Live({ context }: { context: RequestContext }) {
  return <LiveRefresh active={await hasRefundsOnTheirWay(context)} />;
}

/** Refunds that wait for the merchant under the manual policy: they count nowhere until approved and completed. */
async function RefundsWaiting({ context }: { context: RequestContext }) {
  const waiting = await countRefundsAwaitingApproval(context);
  if (waiting === 0) return null;
  return (
    <Notice tone="info">
      {waiting === 1 ? '1 refund waits' : `${waiting} refunds wait`} for your approval.{' '}
      <Link href="/dashboard/refunds?status=requested" className="font-medium underline">
        Review {waiting === 1 ? 'it' : 'them'}
      </Link>
    </Notice>
  );
}

async function Figures({ context, currency }: { context: RequestContext; currency?: 'CAD' | 'USD' }) {
  const { timeZone } = await getViewerTimeZone();
  const overview = await getOverview(context, { currency, timeZone });
  const { totals } = overview;
  const shown = overview.currency;
  const switchable = [...new Set([...overview.currencies, shown])].length > 1;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-gray-900">
          Last {OVERVIEW_DAYS} days · {shown}
        </h2>
        {switchable && (
          <nav aria-label="Currency" className="inline-flex rounded-lg bg-gray-100 p-0.5">
            {CURRENCIES.map((option) => (
              <Link
                key={option}
                href={`/dashboard?currency=${option}`}
                aria-current={option === shown ? 'true' : undefined}
                className={classNames(
                  'rounded-md px-3 py-1 text-sm font-medium',
                  option === shown ? 'bg-white text-gray-900 shadow-sm' : 'text-gray-600 hover:text-gray-900',
                )}
              >
                {option}
              </Link>
            ))}
          </nav>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Gross volume" value={formatMoney(totals.grossVolume, shown)} detail="Succeeded payments" />
        <StatCard
          label="Successful payments"
          value={totals.succeededCount}
          detail={
            totals.failedCount > 0
              ? // every declined try, where Payments shows a checkout's tries as one row
                `${totals.failedCount} failed attempt${totals.failedCount === 1 ? '' : 's'}, each try counted`
              : 'No failed attempts'
          }
        />
        <StatCard
          label="Refunds"
          value={formatMoney(totals.refundedAmount, shown)}
          detail={`${totals.refundCount} refund${totals.refundCount === 1 ? '' : 's'} completed`}
        />
        <StatCard
          label="Refund rate"
          value={totals.refundRate === null ? '—' : `${(totals.refundRate * 100).toFixed(1)}%`}
          detail={totals.refundRate === null ? 'No volume yet' : 'Refunded ÷ gross volume'}
        />
      </dl>
      <Panel title="Volume and refunds per day">
        <VolumeChart days={overview.days} currency={shown} timeZone={timeZone} />
      </Panel>
    </>
  );
}

function FiguresSkeleton() {
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading figures…</span>
      <Skeleton className="h-5 w-48" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-24 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-72 rounded-xl" />
    </div>
  );
}

async function RecentPayments({ context }: { context: RequestContext }) {
  const { rows } = await searchPayments(context, { page: 1 });
  const recent = rows.slice(0, 6);
  if (recent.length === 0) {
    return (
      <EmptyState icon={<CardIcon />} title="No payments yet" headingLevel={3}>
        Create a checkout session with your API key and pay it on the hosted page; it shows up here.
      </EmptyState>
    );
  }
  return <PaymentsTable payments={recent} label="Recent payments" compact />;
}

async function RecentActivity({ context }: { context: RequestContext }) {
  const events = await listRecentActivity(context);
  if (events.length === 0) {
    return (
      <EmptyState icon={<EventIcon />} title="Nothing has happened yet" headingLevel={3}>
        Payments, refunds and expired sessions appear here as they happen.
      </EmptyState>
    );
  }
  return (
    <ul className="divide-y divide-gray-100">
      {events.map((event) => {
        const href = eventSubjectHref(event) ?? `/dashboard/developers/events/${event.id}`;
        return (
          <li key={event.id}>
            <Link
              href={href}
              className="flex items-start justify-between gap-3 px-5 py-3 text-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600"
            >
              <span className="min-w-0">
                <span className="block font-medium text-gray-900">{describeEvent(event)}</span>
                <span className="block font-mono text-xs text-gray-600">{event.type}</span>
              </span>
              <span className="shrink-0 text-gray-600">
                <RelativeTime value={event.createdAt} />
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
