import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { IdText } from '@/components/dashboard/id-text';
import { LogPath } from '@/components/dashboard/log-path';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { HttpStatusBadge } from '@/components/dashboard/status-badge';
import { getApiRequestLog } from '@/lib/api-logs/service';
import { requireMerchant } from '@/lib/auth/session';
import { keyLabel, readableBody } from '@/lib/api-logs/dashboard';
import { listKeys } from '@/lib/api-keys/dashboard';

export const metadata: Metadata = { title: 'Request' };

export default async function LogPage({ params }: { params: Promise<{ id: string }> }) {
  const { context } = await requireMerchant();
  const { id } = await params;
  if (!/^\d{1,18}$/.test(id)) notFound();
  const log = await getApiRequestLog(context, BigInt(id));
  if (!log) notFound();
  const key = log.apiKeyId ? (await listKeys(context)).find((each) => each.id === log.apiKeyId) : undefined;
  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/developers/logs', label: 'Logs' }}
        title={
          <span className="font-mono text-xl sm:text-2xl">
            <span className="mr-2">{log.method}</span>
            <LogPath path={log.path} />
          </span>
        }
        description={<IdText id={log.requestId} label="Copy request id" />}
      />
      <div className="space-y-6">
        <Panel title="Request">
          <DetailList
            items={[
              { label: 'Status', value: <HttpStatusBadge status={log.status} /> },
              {
                label: 'API key',
                value: key ? (
                  <Link
                    href={`/dashboard/developers/logs?key=${key.id}`}
                    className="font-medium text-accent-700 hover:underline"
                    title="Every request made with this key"
                  >
                    {keyLabel(key)}
                  </Link>
                ) : (
                  <span className="text-gray-500">Not recorded</span>
                ),
              },
              { label: 'Duration', value: <span className="tabular-nums">{log.durationMs} ms</span> },
              { label: 'Time', value: <RelativeTime value={log.createdAt} exact /> },
              { label: 'Request id', value: <code className="font-mono text-xs break-all">{log.requestId}</code> },
              {
                label: 'Idempotency key',
                value: log.idempotencyKey ? (
                  <code className="font-mono text-xs break-all">{log.idempotencyKey}</code>
                ) : (
                  <span className="text-gray-500">None</span>
                ),
              },
            ]}
          />
        </Panel>
        <p className="text-sm text-gray-600">
          API keys, webhook signing secrets, passwords, card numbers and security codes are replaced by [redacted]
          before a body is kept; a body over 16 KB is kept up to that size.
        </p>
        <BodyPanel
          title="Request body"
          body={log.requestBody}
          none={log.method === 'GET' ? 'A GET request sends no body.' : 'No body was recorded for this request.'}
        />
        <BodyPanel title="Response body" body={log.responseBody} none="No body was recorded for this answer." />
      </div>
    </>
  );
}

function BodyPanel({ title, body, none }: { title: string; body: string | null; none: string }) {
  return (
    <Panel title={title}>
      {body === null ? (
        <p className="text-sm text-gray-600">{none}</p>
      ) : (
        // a region that can take focus, so the keyboard can scroll a long body too
        <pre
          tabIndex={0}
          role="region"
          aria-label={title}
          className="max-h-[32rem] overflow-auto rounded-lg bg-gray-900 p-4 font-mono text-xs leading-relaxed text-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
        >
          {readableBody(body)}
        </pre>
      )}
    </Panel>
  );
}
