import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DeliveriesTable } from '@/components/dashboard/deliveries-table';
import { EmptyState } from '@/components/dashboard/empty-state';
import { IdText } from '@/components/dashboard/id-text';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { WebhookIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { eventPayloadInApiOrder } from '@/lib/events/dashboard-payload';
import { describeEvent, eventSubjectHref, getEventDetail } from '@/lib/events/dashboard';
import { resendDeliveryAction } from '../../webhooks/actions';

export const metadata: Metadata = { title: 'Event' };

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const { context } = await requireMerchant();
  const { id } = await params;
  const detail = await getEventDetail(context, id);
  if (!detail) notFound();
  const { event, deliveries } = detail;
  const subject = eventSubjectHref(event);
  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/developers/events', label: 'Events' }}
        title={describeEvent(event)}
        description={<IdText id={event.id} label="Copy event id" />}
      />
      <div className="space-y-6">
        <Panel title="Event">
          <DetailList
            items={[
              { label: 'Type', value: <code className="font-mono text-xs">{event.type}</code> },
              { label: 'Created', value: <RelativeTime value={event.createdAt} exact /> },
              ...(subject
                ? [
                    {
                      label: 'About',
                      value: (
                        <Link href={subject} className="font-medium text-accent-700 hover:underline">
                          Open in the dashboard
                        </Link>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Panel>
        <Panel title="Deliveries" description="This event as sent to each endpoint subscribed when it happened." flush>
          {deliveries.length === 0 ? (
            <EmptyState icon={<WebhookIcon />} title="Not sent to any endpoint" headingLevel={3}>
              No enabled endpoint was subscribed to {event.type} when this event happened.
            </EmptyState>
          ) : (
            <DeliveriesTable deliveries={deliveries} resend={resendDeliveryAction} showEndpoint />
          )}
        </Panel>
        <Panel title="Payload" description="The JSON every delivery of this event carries, indented here for reading.">
          {/* focusable so a keyboard can scroll it; a region so a screen reader can name what it scrolls */}
          <pre
            tabIndex={0}
            role="region"
            aria-label="Event payload"
            className="max-h-[32rem] overflow-auto rounded-lg bg-gray-900 p-4 font-mono text-xs leading-relaxed text-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          >
            {JSON.stringify(eventPayloadInApiOrder(event), null, 2)}
          </pre>
        </Panel>
      </div>
    </>
  );
}
