import type { Metadata } from 'next';
import { EndpointCreator } from '@/components/dashboard/endpoint-creator';
import { EmptyState } from '@/components/dashboard/empty-state';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Row, RowLink, Table, Td, Th } from '@/components/dashboard/table';
import { WebhookIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { EVENT_TYPES, listEndpointsWithHealth } from '@/lib/webhooks/dashboard';
import { Badge } from '@/components/ui/badge';
import { hasFaults } from '@/lib/webhooks/faults';
import { createEndpointAction } from './actions';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage() {
  const { context } = await requireMerchant();
  const endpoints = await listEndpointsWithHealth(context);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed events sent to your server as things happen: confirm payments from them, not from the customer’s return."
        action={<EndpointCreator action={createEndpointAction} eventTypes={EVENT_TYPES} />}
      />
      <Panel flush>
        {endpoints.length === 0 ? (
          <EmptyState icon={<WebhookIcon />} title="No endpoints yet">
            Add an endpoint to receive events like payment.succeeded and refund.completed. Every delivery is signed,
            logged, and retried until your server answers 2xx.
          </EmptyState>
        ) : (
          <Table label="Webhook endpoints">
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Events</Th>
                <Th>Last 7 days</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <Row key={endpoint.id}>
                  <Td className="max-w-sm">
                    <RowLink
                      href={`/dashboard/developers/webhooks/${endpoint.id}`}
                      className="block truncate font-mono text-xs"
                    >
                      {endpoint.url}
                    </RowLink>
                    <span className="mt-1 flex items-center gap-2">
                      <StatusBadge status={endpoint.status} />
                      {hasFaults(endpoint) && <Badge tone="warning">Faults on</Badge>}
                      {endpoint.description && (
                        <span className="truncate text-xs text-gray-600">{endpoint.description}</span>
                      )}
                    </span>
                  </Td>
                  <Td className="text-gray-700">
                    {endpoint.events.includes('*')
                      ? 'All events'
                      : `${endpoint.events.length} event type${endpoint.events.length === 1 ? '' : 's'}`}
                  </Td>
                  <Td className="text-xs whitespace-nowrap text-gray-700">
                    <span className="text-green-800">{endpoint.recent.succeeded} delivered</span>
                    {endpoint.recent.pending > 0 && (
                      <span className="text-blue-800"> · {endpoint.recent.pending} retrying</span>
                    )}
                    {endpoint.recent.failed > 0 && (
                      <span className="text-red-700"> · {endpoint.recent.failed} failed</span>
                    )}
                  </Td>
                  <Td className="text-gray-700">
                    <RelativeTime value={endpoint.createdAt} />
                  </Td>
                </Row>
              ))}
            </tbody>
          </Table>
        )}
      </Panel>
    </>
  );
}
