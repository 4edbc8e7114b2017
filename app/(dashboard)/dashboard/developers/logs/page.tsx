import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { FilterBar, FilterSearch, FilterSelect } from '@/components/dashboard/filters';
import { LogPath } from '@/components/dashboard/log-path';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { HttpStatusBadge } from '@/components/dashboard/status-badge';
import { Row, RowLink, Table, Td, Th } from '@/components/dashboard/table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { ChevronRightIcon, LogIcon } from '@/components/ui/icons';
import { listApiRequestLogs } from '@/lib/api-logs/service';
import { requireMerchant } from '@/lib/auth/session';
import type { RequestContext } from '@/lib/core/context';
import { keyLabel, LOG_METHODS, readLogListParams, STATUS_CLASSES, type LogListParams } from '@/lib/api-logs/dashboard';
import { listKeys } from '@/lib/api-keys/dashboard';
import { hrefWith, type SearchParams } from '@/lib/dashboard/list-params';

export const metadata: Metadata = { title: 'Logs' };

const PAGE = 50;
const LOGS = '/dashboard/developers/logs';
const STATUS_CODES = ['400', '401', '403', '404', '409', '413', '422', '429'];

export default async function LogsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { context } = await requireMerchant();
  const list = readLogListParams(await searchParams);
  const { query, before } = list;
  const keys = await listKeys(context);
  const statusOptions = [
    { value: '', label: 'Any status' },
    { value: '2xx', label: '2xx succeeded' },
    { value: '4xx', label: '4xx refused' },
    { value: '5xx', label: '5xx failed' },
    ...STATUS_CODES.map((code) => ({ value: code, label: code })),
    // a code typed into the address, kept in view
    ...(query.status &&
    !(STATUS_CLASSES as readonly string[]).includes(query.status) &&
    !STATUS_CODES.includes(query.status)
      ? [{ value: query.status, label: query.status }]
      : []),
  ];
  return (
    <>
      <PageHeader
        title="Logs"
        description="Your server’s requests to /v1, newest first, with what was sent and answered (secrets redacted), kept 30 days. Quote the request id when something looks wrong."
        action={
          before !== undefined ? (
            <Link
              href={hrefWith(LOGS, query, {})}
              className="inline-flex h-10 items-center rounded-lg border border-gray-300 bg-white px-4 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50"
            >
              Newest requests
            </Link>
          ) : undefined
        }
      />
      <Panel flush>
        <FilterBar action={LOGS}>
          <FilterSelect name="status" label="Status" value={query.status} options={statusOptions} />
          <FilterSelect
            name="method"
            label="Method"
            value={query.method}
            options={[
              { value: '', label: 'Any method' },
              ...LOG_METHODS.map((method) => ({ value: method, label: method })),
            ]}
          />
          <FilterSelect
            name="key"
            label="API key"
            value={query.key}
            options={[{ value: '', label: 'Any key' }, ...keys.map((key) => ({ value: key.id, label: keyLabel(key) }))]}
          />
          <FilterSearch name="path" label="Path starts with" value={query.path} placeholder="/v1/refund-requests" />
        </FilterBar>
        <Suspense
          key={JSON.stringify({ ...query, before: String(before) })}
          fallback={<TableSkeleton label="Loading requests" />}
        >
          <LogRows context={context} list={list} keyNames={new Map(keys.map((key) => [key.id, keyLabel(key)]))} />
        </Suspense>
      </Panel>
    </>
  );
}

async function LogRows({
  context,
  list,
  keyNames,
}: {
  context: RequestContext;
  list: LogListParams;
  /** each key's name or prefix, by id */
  keyNames: Map<string, string>;
}) {
  const { filters, query, before } = list;
  const { data, hasMore } = await listApiRequestLogs(context, {
    limit: PAGE,
    startingAfter: before,
    filters,
  });
  const filtered = Object.keys(query).length > 0;
  if (data.length === 0) {
    return (
      <EmptyState
        icon={<LogIcon />}
        title={
          filtered
            ? 'No requests match these filters'
            : before === undefined
              ? 'No API requests yet'
              : 'No older requests'
        }
      >
        {filtered ? (
          <>
            Try another status, method, key or path, or{' '}
            <Link href={LOGS} className="font-medium text-accent-700 hover:underline">
              show every request
            </Link>
            .
          </>
        ) : (
          'Requests made with your API keys appear here with their status, duration, request id, idempotency key and bodies.'
        )}
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="API requests">
        <thead>
          <tr>
            <Th>Request</Th>
            <Th>Status</Th>
            {/* on a phone the duration and time sit under the path: a fourth column would be scrolled out of view */}
            <Th align="right" className="hidden sm:table-cell">
              Duration
            </Th>
            <Th className="hidden md:table-cell">Request id</Th>
            <Th className="hidden lg:table-cell">Idempotency key</Th>
            <Th className="hidden sm:table-cell">Time</Th>
          </tr>
        </thead>
        <tbody>
          {data.map((row) => (
            <Row key={String(row.id)}>
              <Td className="max-w-md min-w-48">
                <RowLink href={`${LOGS}/${row.id}`} className="font-mono text-xs font-normal">
                  <span className="mr-2 inline-block w-10 font-semibold text-gray-700">{row.method}</span>
                  <LogPath path={row.path} />
                </RowLink>
                <span className="mt-0.5 block text-xs text-gray-600 tabular-nums sm:hidden">
                  {row.durationMs} ms · <RelativeTime value={row.createdAt} />
                </span>
                <span className="mt-0.5 block font-mono text-[11px] text-gray-600 md:hidden">{row.requestId}</span>
                {row.apiKeyId && (
                  <span className="mt-0.5 block truncate text-xs text-gray-600" data-testid="log-key">
                    <span className="sr-only">Key: </span>
                    {keyNames.get(row.apiKeyId) ?? row.apiKeyId}
                  </span>
                )}
              </Td>
              <Td>
                <HttpStatusBadge status={row.status} />
              </Td>
              <Td align="right" className="hidden whitespace-nowrap text-gray-700 sm:table-cell">
                {row.durationMs} ms
              </Td>
              <Td className="hidden font-mono text-xs text-gray-700 md:table-cell">{row.requestId}</Td>
              <Td className="hidden max-w-48 truncate font-mono text-xs text-gray-700 lg:table-cell">
                {row.idempotencyKey ?? <span className="text-gray-500">—</span>}
              </Td>
              <Td className="hidden whitespace-nowrap text-gray-700 sm:table-cell">
                <RelativeTime value={row.createdAt} />
              </Td>
            </Row>
          ))}
        </tbody>
      </Table>
      {hasMore && (
        <div className="flex justify-end px-4 py-3">
          <Link
            href={hrefWith(LOGS, query, { before: String(data.at(-1)!.id) })}
            className="inline-flex h-9 items-center gap-1 rounded-lg border border-gray-300 bg-white px-3 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50"
          >
            Older requests
            <ChevronRightIcon />
          </Link>
        </div>
      )}
    </>
  );
}
