import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConfirmAction } from '@/components/dashboard/action-forms';
import { OrderItems } from '@/components/dashboard/order-items';
import { IdText } from '@/components/dashboard/id-text';
import { MetadataList } from '@/components/dashboard/metadata-list';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { CopyButton } from '@/components/ui/copy-button';
import { requireMerchant } from '@/lib/auth/session';
import { checkoutUrl } from '@/lib/checkout-sessions/serialize';
import { getCheckoutSessionDetail } from '@/lib/checkout-sessions/dashboard';
import { describeMethodDetails, formatMoney, METHOD_LABELS } from '@/lib/dashboard/format';
import { paymentListStatus } from '@/lib/payments/dashboard';
import { describeFailure } from '@/lib/payments/dashboard-timeline';
import { expireSessionAction } from '../actions';

export const metadata: Metadata = { title: 'Checkout session' };

export default async function CheckoutSessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { context } = await requireMerchant();
  const { id } = await params;
  const detail = await getCheckoutSessionDetail(context, id);
  if (!detail) notFound();
  const { session, events } = detail;
  const url = checkoutUrl(session.id);
  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/checkout-sessions', label: 'Checkout sessions' }}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {formatMoney(session.amount, session.currency)}
            <StatusBadge status={session.status} />
          </span>
        }
        description={<IdText id={session.id} label="Copy session id" />}
        action={
          session.status === 'open' ? (
            <ConfirmAction
              action={expireSessionAction}
              fields={{ sessionId: session.id }}
              trigger="Expire session"
              title="Expire this checkout session?"
              description="Its page stops taking payment at once and checkout_session.expired is sent. The order stays unpaid, so you can create a new session for it."
              confirmLabel="Expire session"
              pendingLabel="Expiring…"
            />
          ) : undefined
        }
      />
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="min-w-0 space-y-6">
          <Panel title="Details">
            <DetailList
              items={[
                { label: 'Order reference', value: session.orderReference },
                { label: 'Customer e-mail', value: session.customerEmail ?? 'None given' },
                {
                  label: 'Hosted page',
                  value: (
                    <span className="flex items-center gap-1">
                      <a
                        href={url}
                        target="_blank"
                        rel="noreferrer"
                        className="min-w-0 truncate font-mono text-xs text-accent-700 hover:underline"
                      >
                        {url}
                      </a>
                      <CopyButton text={url} label="Copy checkout URL" compact />
                    </span>
                  ),
                },
                {
                  label: 'Payment methods',
                  value: session.paymentMethods.map((method) => METHOD_LABELS[method]).join(', '),
                },
                {
                  label: 'Return URL',
                  value: <span className="font-mono text-xs break-all">{session.returnUrl}</span>,
                },
                {
                  label: 'Cancel URL',
                  value: session.cancelUrl ? (
                    <span className="font-mono text-xs break-all">{session.cancelUrl}</span>
                  ) : (
                    '—'
                  ),
                },
                { label: 'Created', value: <RelativeTime value={session.createdAt} exact /> },
                {
                  label: session.status === 'open' ? 'Expires' : session.status === 'expired' ? 'Expired' : 'Completed',
                  value: (
                    <RelativeTime
                      value={
                        session.status === 'complete' && session.completedAt
                          ? session.completedAt
                          : (session.expiredAt ?? session.expiresAt)
                      }
                      exact
                    />
                  ),
                },
              ]}
            />
          </Panel>
          <Panel id="metadata" title="Metadata">
            <MetadataList metadata={session.metadata} />
          </Panel>
          <Panel title="Payment attempts" flush>
            {session.payments.length === 0 ? (
              <p className="px-5 py-6 text-sm text-gray-600">
                {session.status === 'open'
                  ? 'No attempt yet. The customer has not submitted the hosted page.'
                  : 'Nobody tried to pay this session.'}
              </p>
            ) : (
              <ul className="divide-y divide-gray-100">
                {session.payments.map((payment) => (
                  <li key={payment.id}>
                    <Link
                      href={`/dashboard/payments/${payment.id}`}
                      className="flex items-center justify-between gap-3 px-5 py-3 text-sm hover:bg-gray-50"
                    >
                      <span className="min-w-0">
                        <span className="block font-medium text-gray-900">
                          {describeMethodDetails(payment.paymentMethod, payment.methodDetails)}
                        </span>
                        <span className="block text-xs text-gray-600">
                          {payment.status === 'failed'
                            ? describeFailure(payment.failureCode)
                            : formatMoney(payment.amount, payment.currency)}{' '}
                          · <RelativeTime value={payment.createdAt} />
                        </span>
                      </span>
                      <StatusBadge status={paymentListStatus(payment)} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <Panel title="Events" flush>
            {events.length === 0 ? (
              <p className="px-5 py-6 text-sm text-gray-600">
                No events yet: one is sent when the session completes or expires.
              </p>
            ) : (
              <ul className="divide-y divide-gray-100">
                {events.map((event) => (
                  <li key={event.id} className="flex items-center justify-between gap-3 px-5 py-3 text-sm">
                    <Link
                      href={`/dashboard/developers/events/${event.id}`}
                      className="font-mono text-xs text-accent-700 hover:underline"
                    >
                      {event.type}
                    </Link>
                    <span className="text-gray-600">
                      <RelativeTime value={event.createdAt} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
        </div>
        <Panel title="Items" flush className="h-fit">
          <OrderItems
            items={session.items}
            currency={session.currency}
            shippingAmount={session.shippingAmount}
            taxAmount={session.taxAmount}
            amount={session.amount}
          />
        </Panel>
      </div>
    </>
  );
}
