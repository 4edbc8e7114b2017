import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ActionAnnouncer } from '@/components/dashboard/action-announcer';
import { ActionButton, ConfirmAction } from '@/components/dashboard/action-forms';
import { DeliveriesTable } from '@/components/dashboard/deliveries-table';
import { EmptyState } from '@/components/dashboard/empty-state';
import { EndpointCreator } from '@/components/dashboard/endpoint-creator';
import { FaultInjectionForm } from '@/components/dashboard/fault-injection-form';
import { IdText } from '@/components/dashboard/id-text';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { SecretReveal } from '@/components/dashboard/secret-reveal';
import { SendTestEvent } from '@/components/dashboard/send-test-event';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { WebhookIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { hrefWith, PAGE_SIZE, pageNumber, type SearchParams } from '@/lib/dashboard/list-params';
import { EVENT_TYPES, getEndpointDetail } from '@/lib/webhooks/dashboard';
import { serializeFaults } from '@/lib/webhooks/faults';
import {
  deleteEndpointAction,
  resendDeliveryAction,
  revealSecretAction,
  rotateSecretAction,
  sendTestEventAction,
  setEndpointStatusAction,
  updateEndpointAction,
  updateFaultsAction,
} from '../actions';

export const metadata: Metadata = { title: 'Webhook endpoint' };

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { context } = await requireMerchant();
  const { id } = await params;
  const page = pageNumber(await searchParams);
  const detail = await getEndpointDetail(context, id, page);
  const { now } = context;
  if (!detail) notFound();
  const { endpoint, deliveries, total } = detail;
  const path = `/dashboard/developers/webhooks/${endpoint.id}`;

  return (
    <ActionAnnouncer>
      <PageHeader
        back={{ href: '/dashboard/developers/webhooks', label: 'Webhooks' }}
        title={<span className="font-mono text-lg break-all sm:text-xl">{endpoint.url}</span>}
        description={<IdText id={endpoint.id} label="Copy endpoint id" />}
        action={
          <>
            <EndpointCreator
              action={updateEndpointAction}
              eventTypes={EVENT_TYPES}
              endpoint={{
                id: endpoint.id,
                url: endpoint.url,
                description: endpoint.description,
                events: endpoint.events,
              }}
            />
            {endpoint.status === 'enabled' ? (
              <ConfirmAction
                action={setEndpointStatusAction}
                fields={{ endpointId: endpoint.id, status: 'disabled' }}
                trigger="Disable"
                title="Disable this endpoint?"
                description="Nothing is sent to it while it is disabled: new events and retries wait, and go out once you enable it again."
                confirmLabel="Disable endpoint"
                pendingLabel="Disabling…"
              />
            ) : (
              <ActionButton
                action={setEndpointStatusAction}
                fields={{ endpointId: endpoint.id, status: 'enabled' }}
                pendingLabel="Enabling…"
              >
                Enable
              </ActionButton>
            )}
            <ConfirmAction
              action={rotateSecretAction}
              fields={{ endpointId: endpoint.id }}
              trigger="Rotate secret"
              title="Rotate the signing secret?"
              description="A new secret signs from now on. The current one keeps signing beside it for 24 hours, so you can switch your receiver over without rejecting anything."
              confirmLabel="Rotate secret"
              pendingLabel="Rotating…"
              reveal={{
                title: 'Your new signing secret',
                explanation: 'Deliveries carry signatures with both secrets for the next 24 hours.',
                warning: 'You can reveal it again on this page, after entering your password.',
              }}
            />
            <ConfirmAction
              action={deleteEndpointAction}
              fields={{ endpointId: endpoint.id }}
              trigger="Delete"
              title="Delete this endpoint?"
              description="Nothing more is sent to it, including deliveries still being retried. Its delivery log stays readable in Events."
              confirmLabel="Delete endpoint"
              pendingLabel="Deleting…"
            />
          </>
        }
      />
      <div className="space-y-6">
        <Panel title="Endpoint">
          <DetailList
            items={[
              { label: 'Status', value: <StatusBadge status={endpoint.status} /> },
              {
                label: 'Events',
                value: endpoint.events.includes('*') ? (
                  'All events'
                ) : (
                  <ul className="flex flex-wrap gap-1">
                    {endpoint.events.map((type) => (
                      <li key={type} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] text-gray-700">
                        {type}
                      </li>
                    ))}
                  </ul>
                ),
              },
              ...(endpoint.description ? [{ label: 'Description', value: endpoint.description }] : []),
              {
                label: 'Signing secret',
                value: (
                  <span className="text-gray-700">
                    <span className="flex flex-wrap items-center gap-2">
                      <code className="font-mono text-xs">whsec_••••••••</code>
                      <SecretReveal action={revealSecretAction} endpointId={endpoint.id} />
                    </span>
                    {endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now && (
                      <span className="block text-xs text-gray-600">
                        The previous secret also signs until{' '}
                        <RelativeTime value={endpoint.previousSecretExpiresAt} exact />.
                      </span>
                    )}
                  </span>
                ),
              },
              { label: 'Created', value: <RelativeTime value={endpoint.createdAt} exact /> },
            ]}
          />
        </Panel>
        <Panel
          title="Deliveries"
          description="Every event and test sent to this endpoint, newest first, with each attempt."
          flush
        >
          <SendTestEvent action={sendTestEventAction} endpointId={endpoint.id} />
          {total === 0 ? (
            <EmptyState icon={<WebhookIcon />} title="No deliveries yet" headingLevel={3}>
              Events this endpoint subscribes to are delivered here as they happen. Send a test event to check your
              receiver now.
            </EmptyState>
          ) : (
            <>
              <DeliveriesTable deliveries={deliveries} resend={resendDeliveryAction} />
              <Pagination
                page={page}
                pageSize={PAGE_SIZE}
                total={total}
                hrefFor={(next) => hrefWith(path, {}, { page: next })}
              />
            </>
          )}
        </Panel>
        <Panel
          id="fault-injection"
          title="Fault injection"
          description="Make this endpoint receive what real webhooks do — duplicates, delays, disorder — to test your handler. Injected attempts are marked in the log."
        >
          <FaultInjectionForm action={updateFaultsAction} endpointId={endpoint.id} faults={serializeFaults(endpoint)} />
        </Panel>
      </div>
    </ActionAnnouncer>
  );
}
