import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { EmptyState } from '@/components/dashboard/empty-state';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { HttpStatusBadge } from '@/components/dashboard/status-badge';
import { Table, Td, Th } from '@/components/dashboard/table';
import { TableSkeleton } from '@/components/dashboard/table-skeleton';
import { ChevronRightIcon, LogIcon } from '@/components/ui/icons';
import { listApiRequestLogs } from '@/lib/api-logs/service';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { first, type SearchParams } from '@/lib/dashboard/list-params';

export const metadata: Metadata = { title: 'Logs' };

const PAGE = 50;

/** A log id from the URL: the page shows requests older than it. */
function olderThan(params: SearchParams): bigint | undefined {
  const value = first(params, 'before');
  return value && /^\d{1,18}$/.test(value) ? BigInt(value) : undefined;
}

export default async function LogsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { merchantId } = await requireMerchant();
  const before = olderThan(await searchParams);
  return (
    <>
      <PageHeader
        title="Logs"
        description="Your server’s recent requests to /v1, newest first, kept 30 days. Quote the request id when something looks wrong."
        action={
          before !== undefined ? (
            <Link href="/dashboard/developers/logs" className="inline-flex h-10 items-center rounded-lg border border-gray-300 bg-white px-4 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50">
              Newest requests
            </Link>
          ) : undefined
        }
      />
      <Panel flush>
        <Suspense key={String(before)} fallback={<TableSkeleton label="Loading requests" />}>
          <LogRows merchantId={merchantId} before={before} />
        </Suspense>
      </Panel>
    </>
  );
}

async function LogRows({ merchantId, before }: { merchantId: string; before?: bigint }) {
  const { data, hasMore } = await listApiRequestLogs(await db(), merchantId, { limit: PAGE, startingAfter: before });
  if (data.length === 0) {
    return (
      <EmptyState icon={<LogIcon />} title={before === undefined ? 'No API requests yet' : 'No older requests'}>
        Requests made with your API keys appear here with their status, duration, request id and idempotency key.
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
            <Th align="right">Duration</Th>
            <Th className="hidden md:table-cell">Request id</Th>
            <Th className="hidden lg:table-cell">Idempotency key</Th>
            <Th>Time</Th>
          </tr>
        </thead>
        <tbody>
          {data.map((row) => (
            <tr key={String(row.id)}>
              <Td className="max-w-md">
                <span className="font-mono text-xs">
                  <span className="mr-2 inline-block w-10 font-semibold text-gray-700">{row.method}</span>
                  <span className="break-all text-gray-900">{row.path}</span>
                </span>
                <span className="mt-0.5 block font-mono text-[11px] text-gray-600 md:hidden">{row.requestId}</span>
              </Td>
              <Td>
                <HttpStatusBadge status={row.status} />
              </Td>
              <Td align="right" className="whitespace-nowrap text-gray-700">
                {row.durationMs} ms
              </Td>
              <Td className="hidden font-mono text-xs text-gray-700 md:table-cell">{row.requestId}</Td>
              <Td className="hidden max-w-48 truncate font-mono text-xs text-gray-700 lg:table-cell">
                {row.idempotencyKey ?? <span className="text-gray-500">—</span>}
              </Td>
              <Td className="text-gray-700">
                <RelativeTime value={row.createdAt} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {hasMore && (
        <div className="flex justify-end px-4 py-3">
          <Link
            href={`/dashboard/developers/logs?before=${data.at(-1)!.id}`}
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
