import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { FilterBar, FilterDate, FilterSearch, FilterSelect } from '@/components/dashboard/filters';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { PaymentsTable } from '@/components/dashboard/payments-table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { CardIcon, SearchIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import type { RequestContext } from '@/lib/core/context';
import { METHOD_LABELS, statusLabel } from '@/lib/dashboard/format';
import { getViewerTimeZone } from '@/lib/dashboard/viewer-time-zone';
import {
  day,
  hrefWith,
  oneOf,
  PAGE_SIZE,
  pageNumber,
  searchText,
  type SearchParams,
} from '@/lib/dashboard/list-params';
import {
  CURRENCIES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  searchPayments,
  type PaymentFilters,
} from '@/lib/payments/dashboard';
import { shortZoneName } from '@/lib/core/time-zone';

export const metadata: Metadata = { title: 'Payments' };

const PATH = '/dashboard/payments';

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { context } = await requireMerchant();
  const { timeZone } = await getViewerTimeZone();
  const params = await searchParams;
  const filters: PaymentFilters = {
    status: oneOf(params, 'status', PAYMENT_STATUSES),
    method: oneOf(params, 'method', PAYMENT_METHODS),
    currency: oneOf(params, 'currency', CURRENCIES),
    from: day(params, 'from'),
    to: day(params, 'to'),
    timeZone,
    q: searchText(params),
    page: pageNumber(params),
  };
  return (
    <>
      <PageHeader
        title="Payments"
        description="Each checkout’s payment: succeeded, uncaptured (authorized, waiting for you to capture it), canceled, or failed with the reason. Its declined tries are counted on its row and listed on its page."
      />
      <Panel flush>
        <FilterBar action={PATH}>
          <FilterSearch
            name="q"
            label="Search"
            value={filters.q}
            placeholder="Payment id, order reference, session id or e-mail"
          />
          <FilterSelect
            name="status"
            label="Status"
            value={filters.status}
            options={[
              { value: '', label: 'Any status' },
              ...PAYMENT_STATUSES.map((status) => ({ value: status, label: statusLabel(status) })),
            ]}
          />
          <FilterSelect
            name="method"
            label="Method"
            value={filters.method}
            options={[
              { value: '', label: 'Any method' },
              ...PAYMENT_METHODS.map((method) => ({ value: method, label: METHOD_LABELS[method] })),
            ]}
          />
          <FilterSelect
            name="currency"
            label="Currency"
            value={filters.currency}
            options={[
              { value: '', label: 'Any currency' },
              ...CURRENCIES.map((currency) => ({ value: currency, label: currency })),
            ]}
          />
          <FilterDate name="from" label={`From (${shortZoneName(timeZone)})`} value={filters.from} />
          <FilterDate name="to" label={`To (${shortZoneName(timeZone)})`} value={filters.to} />
        </FilterBar>
        <Suspense key={JSON.stringify(filters)} fallback={<TableSkeleton label="Loading payments" />}>
          <PaymentResults context={context} filters={filters} />
        </Suspense>
      </Panel>
    </>
  );
}

async function PaymentResults({ context, filters }: { context: RequestContext; filters: PaymentFilters }) {
  const { total, rows } = await searchPayments(context, filters);
  const filtered = Boolean(
    filters.status || filters.method || filters.currency || filters.from || filters.to || filters.q,
  );
  if (total === 0) {
    return filtered ? (
      <EmptyState icon={<SearchIcon />} title="No payments match these filters">
        Search takes a whole payment id (pay_…) or session id (cs_…), or any part of an order reference or of a
        customer’s e-mail.
      </EmptyState>
    ) : (
      <EmptyState icon={<CardIcon />} title="No payments yet">
        Payments appear here when customers pay. Create a checkout session with your API key and send the customer to
        its url.
      </EmptyState>
    );
  }
  const current = {
    status: filters.status,
    method: filters.method,
    currency: filters.currency,
    from: filters.from,
    to: filters.to,
    q: filters.q,
  };
  return (
    <>
      <PaymentsTable payments={rows} />
      <Pagination
        page={filters.page}
        pageSize={PAGE_SIZE}
        total={total}
        hrefFor={(page) => hrefWith(PATH, current, { page })}
      />
    </>
  );
}
