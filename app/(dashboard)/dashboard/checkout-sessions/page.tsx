import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { FilterBar, FilterSearch, FilterSelect } from '@/components/dashboard/filters';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { DateHeading } from '@/components/dashboard/time-zone';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Row, RowLink, Table, Td, Th } from '@/components/dashboard/table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { SearchIcon, SessionIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { searchCheckoutSessions, SESSION_STATUSES, type SessionStatus } from '@/lib/checkout-sessions/dashboard';
import { formatMoney, METHOD_LABELS, statusLabel } from '@/lib/dashboard/format';
import { hrefWith, oneOf, PAGE_SIZE, pageNumber, searchText, type SearchParams } from '@/lib/dashboard/list-params';

export const metadata: Metadata = { title: 'Checkout sessions' };

const PATH = '/dashboard/checkout-sessions';

export default async function CheckoutSessionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireMerchant();
  const params = await searchParams;
  const filters = {
    status: oneOf(params, 'status', SESSION_STATUSES),
    q: searchText(params),
    page: pageNumber(params),
  };
  return (
    <>
      <PageHeader
        title="Checkout sessions"
        description="Hosted checkouts your server created: open for 30 minutes, then complete or expired."
      />
      <Panel flush>
        <FilterBar action={PATH}>
          <FilterSearch name="q" label="Search" value={filters.q} placeholder="Session id or order reference" />
          <FilterSelect
            name="status"
            label="Status"
            value={filters.status}
            options={[
              { value: '', label: 'Any status' },
              ...SESSION_STATUSES.map((status) => ({ value: status, label: statusLabel(status) })),
            ]}
          />
        </FilterBar>
        <Suspense key={JSON.stringify(filters)} fallback={<TableSkeleton label="Loading checkout sessions" />}>
          <SessionResults filters={filters} />
        </Suspense>
      </Panel>
    </>
  );
}

async function SessionResults({ filters }: { filters: { status?: SessionStatus; q?: string; page: number } }) {
  // the session is read once per request (lib/auth/session.ts)
  const { context } = await requireMerchant();
  const { total, rows } = await searchCheckoutSessions(context, filters);
  if (total === 0) {
    return filters.status || filters.q ? (
      <EmptyState icon={<SearchIcon />} title="No checkout sessions match">
        Search takes a whole session id (cs_…) or any part of an order reference.
      </EmptyState>
    ) : (
      <EmptyState icon={<SessionIcon />} title="No checkout sessions yet">
        Your server creates them with POST /v1/checkout-sessions and an API key, then sends the customer to the
        session’s url.
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="Checkout sessions" stickyHeader>
        <thead>
          <tr>
            <Th align="right">Amount</Th>
            <Th>Status</Th>
            <Th>Order reference</Th>
            <Th className="hidden md:table-cell">Methods</Th>
            <Th className="hidden xl:table-cell">Session id</Th>
            <Th>
              <DateHeading>Created</DateHeading>
            </Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((session) => (
            <Row key={session.id}>
              <Td align="right" className="whitespace-nowrap">
                <RowLink href={`${PATH}/${session.id}`}>{formatMoney(session.amount, session.currency)}</RowLink>
              </Td>
              <Td>
                <StatusBadge status={session.status} />
              </Td>
              <Td className="max-w-48 truncate text-gray-700">{session.orderReference}</Td>
              <Td className="hidden text-gray-700 md:table-cell">
                {session.paymentMethods.map((method) => METHOD_LABELS[method]).join(', ')}
              </Td>
              <Td className="hidden font-mono text-xs text-gray-600 xl:table-cell">{session.id}</Td>
              <Td className="text-gray-700">
                <RelativeTime value={session.createdAt} />
              </Td>
            </Row>
          ))}
        </tbody>
      </Table>
      <Pagination
        page={filters.page}
        pageSize={PAGE_SIZE}
        total={total}
        hrefFor={(page) => hrefWith(PATH, { status: filters.status, q: filters.q }, { page })}
      />
    </>
  );
}
