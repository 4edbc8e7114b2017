import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { FilterBar, FilterSelect } from '@/components/dashboard/filters';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { DateHeading } from '@/components/dashboard/time-zone';
import { Row, RowLink, Table, Td, Th } from '@/components/dashboard/table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { EventIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import type { RequestContext } from '@/lib/core/context';
import { describeEvent, EVENT_TYPES, searchEvents } from '@/lib/events/dashboard';
import { hrefWith, oneOf, PAGE_SIZE, pageNumber, type SearchParams } from '@/lib/dashboard/list-params';

export const metadata: Metadata = { title: 'Events' };

const PATH = '/dashboard/developers/events';

export default async function EventsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { context } = await requireMerchant();
  const params = await searchParams;
  const filters = { type: oneOf(params, 'type', EVENT_TYPES), page: pageNumber(params) };
  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened in your account, as your webhook endpoints receive it and GET /v1/events lists it."
      />
      <Panel flush>
        <FilterBar action={PATH}>
          <FilterSelect
            name="type"
            label="Type"
            value={filters.type}
            options={[{ value: '', label: 'All types' }, ...EVENT_TYPES.map((type) => ({ value: type, label: type }))]}
          />
        </FilterBar>
        <Suspense key={JSON.stringify(filters)} fallback={<TableSkeleton label="Loading events" />}>
          <EventResults context={context} filters={filters} />
        </Suspense>
      </Panel>
    </>
  );
}

async function EventResults({
  context,
  filters,
}: {
  context: RequestContext;
  filters: { type?: string; page: number };
}) {
  const { total, rows } = await searchEvents(context, filters);
  if (total === 0) {
    return (
      <EmptyState icon={<EventIcon />} title={filters.type ? `No ${filters.type} events` : 'No events yet'}>
        Events are written when payments succeed or fail, sessions complete or expire, and refunds are requested,
        completed or failed.
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="Events" stickyHeader>
        <thead>
          <tr>
            <Th>Event</Th>
            <Th className="hidden md:table-cell">Type</Th>
            <Th className="hidden lg:table-cell">Id</Th>
            <Th>
              <DateHeading />
            </Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((event) => (
            <Row key={event.id}>
              <Td>
                <RowLink href={`${PATH}/${event.id}`}>{describeEvent(event)}</RowLink>
                <span className="block font-mono text-[11px] text-gray-600 md:hidden">{event.type}</span>
              </Td>
              <Td className="hidden font-mono text-xs text-gray-700 md:table-cell">{event.type}</Td>
              <Td className="hidden font-mono text-xs text-gray-600 lg:table-cell">{event.id}</Td>
              <Td className="text-gray-700">
                <RelativeTime value={event.createdAt} />
              </Td>
            </Row>
          ))}
        </tbody>
      </Table>
      <Pagination
        page={filters.page}
        pageSize={PAGE_SIZE}
        total={total}
        hrefFor={(page) => hrefWith(PATH, { type: filters.type }, { page })}
      />
    </>
  );
}
