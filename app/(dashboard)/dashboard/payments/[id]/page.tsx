import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionAnnouncer } from '@/components/dashboard/action-announcer';
import { CapturePanel } from '@/components/dashboard/capture-panel';
import { EmptyState } from '@/components/dashboard/empty-state';
import { OrderItems } from '@/components/dashboard/order-items';
import { IdText } from '@/components/dashboard/id-text';
import { MetadataList } from '@/components/dashboard/metadata-list';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { LiveRefresh } from '@/components/dashboard/live-refresh';
import { RefundForm } from '@/components/dashboard/refund-form';
import { RefundsTable } from '@/components/dashboard/refunds-table';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Timeline } from '@/components/dashboard/timeline';
import { RefundIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { describeMethodDetails, formatMoney } from '@/lib/dashboard/format';
import { getPaymentDetail, paymentListStatus, type PaymentDetail } from '@/lib/payments/dashboard';
import { isRefundOnItsWay } from '@/lib/refunds/dashboard';
import { describeFailure } from '@/lib/payments/dashboard-timeline';
import { getRefundPolicy } from '@/lib/merchants/service';
import { AUTHORIZATION_DAYS, authorizationExpiresAt } from '@/lib/payments/authorization';
import { approveRefundAction, cancelRefundAction, declineRefundAction } from '../../refunds/actions';
import { cancelAuthorizationAction, capturePaymentAction, refundPaymentAction } from './actions';

export const metadata: Metadata = { title: 'Payment' };

/** Why a payment that did not succeed has nothing to refund. */
const NOTHING_TO_REFUND: Record<string, string> = {
  failed: 'This payment failed, so there is nothing to refund.',
  requires_capture: 'This payment is authorized but not captured yet: only captured payments can be refunded.',
  canceled: 'This payment’s authorization was canceled, so there is nothing to refund.',
};

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { context } = await requireMerchant();
  const { id } = await params;
  const detail = await getPaymentDetail(context, id);
  if (!detail) notFound();
  const { payment, session, otherAttempts } = detail;
  const refundPolicy = await getRefundPolicy(context);
  const amount = formatMoney(payment.amount, payment.currency);
  const method = describeMethodDetails(payment.paymentMethod, payment.methodDetails);
  // the refunds' dialogs name the payment by its order, as the Refunds page does
  const refunds = detail.refunds.map((refund) => ({ ...refund, payment: { orderReference: payment.orderReference } }));
  // made on the account's clock (its test clock), as the worker counts its days
  const expiresAt = authorizationExpiresAt(payment.createdAt);
  const paidBy =
    payment.status === 'failed' ? otherAttempts.find((attempt) => attempt.status === 'succeeded') : undefined;

  return (
    <>
      <LiveRefresh active={refunds.some((refund) => isRefundOnItsWay(refund, refundPolicy))} />
      <PageHeader
        back={{ href: '/dashboard/payments', label: 'Payments' }}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {amount}
            <StatusBadge status={paymentListStatus(payment)} />
          </span>
        }
        description={<IdText id={payment.id} label="Copy payment id" />}
      />
      {/* two columns from lg; on a phone one, with the Refund form right after the details */}
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[3fr_2fr] lg:items-start">
        <div className="contents lg:block lg:min-w-0 lg:space-y-6">
          <Panel id="details" title="Details" className="order-1">
            <DetailList
              items={[
                { label: 'Amount', value: amount },
                ...(payment.status === 'failed'
                  ? [{ label: 'Failure', value: describeFailure(payment.failureCode) }]
                  : []),
                ...(payment.captureMethod === 'manual' ? authorizationDetails(payment, expiresAt) : []),
                { label: 'Refunded', value: formatMoney(payment.amountRefunded, payment.currency) },
                { label: 'Refundable', value: formatMoney(detail.amountRefundable, payment.currency) },
                { label: 'Payment method', value: method },
                { label: 'Customer e-mail', value: payment.customerEmail ?? 'None given' },
                {
                  label: 'Order reference',
                  value:
                    detail.orderLabel === payment.orderReference ? (
                      payment.orderReference
                    ) : (
                      <>
                        {detail.orderLabel}
                        <span className="block font-mono text-xs text-gray-600">{payment.orderReference}</span>
                      </>
                    ),
                },
                {
                  label: 'Checkout session',
                  value: (
                    <Link
                      href={`/dashboard/checkout-sessions/${session.id}`}
                      className="font-mono text-xs text-accent-700 hover:underline"
                    >
                      {session.id}
                    </Link>
                  ),
                },
                ...(otherAttempts.length > 0
                  ? [
                      {
                        label: otherAttempts.length === 1 ? 'Other attempt' : 'Other attempts',
                        value: (
                          <ul className="space-y-1.5">
                            {otherAttempts.map((attempt) => (
                              <li key={attempt.id} className="flex flex-wrap items-center gap-2">
                                <Link
                                  href={`/dashboard/payments/${attempt.id}`}
                                  className="font-mono text-xs break-all text-accent-700 hover:underline"
                                >
                                  {attempt.id}
                                </Link>
                                <StatusBadge status={paymentListStatus(attempt)} />
                              </li>
                            ))}
                          </ul>
                        ),
                      },
                    ]
                  : []),
                { label: 'Created', value: <RelativeTime value={payment.createdAt} exact /> },
              ]}
            />
          </Panel>
          <Panel id="metadata" title="Metadata" className="order-3">
            <MetadataList metadata={payment.metadata} />
          </Panel>
          <Panel id="refunds" title="Refunds" flush className="order-3">
            <ActionAnnouncer>
              {refunds.length === 0 ? (
                <EmptyState icon={<RefundIcon />} title="No refunds" headingLevel={3}>
                  {payment.status === 'succeeded'
                    ? 'Refunds of this payment, from here or from the API, are listed here.'
                    : 'Only succeeded payments can be refunded.'}
                </EmptyState>
              ) : (
                <RefundsTable
                  refunds={refunds}
                  policy={refundPolicy}
                  showPayment={false}
                  tableFrom="2xl"
                  actions={{ approve: approveRefundAction, decline: declineRefundAction, cancel: cancelRefundAction }}
                />
              )}
            </ActionAnnouncer>
          </Panel>
          <Panel id="timeline" title="Timeline" className="order-4">
            <Timeline entries={detail.timeline} />
          </Panel>
        </div>
        <div className="contents lg:block lg:min-w-0 lg:space-y-6">
          {payment.captureMethod === 'manual' && payment.status !== 'failed' && (
            <Panel
              id="capture"
              className="order-2"
              title="Capture"
              description={
                payment.status === 'requires_capture'
                  ? 'Take all or part of the authorization, or release it.'
                  : undefined
              }
            >
              <CapturePanel
                payment={{
                  id: payment.id,
                  currency: payment.currency,
                  amount: payment.amount,
                  orderReference: payment.orderReference,
                  status: payment.status,
                  amountCaptured: payment.amountCaptured,
                  cancellationReason: payment.cancellationReason,
                  expiresAt,
                }}
                captureAction={capturePaymentAction}
                cancelAction={cancelAuthorizationAction}
              />
            </Panel>
          )}
          <Panel
            id="refund"
            className="order-2"
            title="Refund"
            description={
              refundPolicy === 'manual' ? 'Your refund policy is manual: refunds wait for approval.' : undefined
            }
          >
            {payment.status !== 'succeeded' ? (
              <div className="space-y-2 text-sm text-gray-600">
                <p>{NOTHING_TO_REFUND[payment.status]}</p>
                {paidBy && (
                  <p>
                    The customer paid this order with another attempt:{' '}
                    <Link
                      href={`/dashboard/payments/${paidBy.id}`}
                      className="font-mono text-xs break-all text-accent-700 hover:underline"
                    >
                      {paidBy.id}
                    </Link>
                    .
                  </p>
                )}
              </div>
            ) : (
              <RefundForm
                action={refundPaymentAction}
                payment={{ id: payment.id, currency: payment.currency, orderReference: payment.orderReference, method }}
                refundable={detail.amountRefundable}
                refunds={Object.fromEntries(
                  refunds.map((refund) => [refund.id, { status: refund.status, failureReason: refund.failureReason }]),
                )}
                isUsdc={payment.paymentMethod === 'usdc'}
                policy={refundPolicy}
              />
            )}
          </Panel>
          <Panel title="Items" flush className="order-5">
            <OrderItems
              items={session.items}
              currency={session.currency}
              shippingAmount={session.shippingAmount}
              taxAmount={session.taxAmount}
              amount={session.amount}
            />
          </Panel>
        </div>
      </div>
    </>
  );
}

/** The Details of a manual-capture payment: what was captured, and when its authorization ends or ended. */
function authorizationDetails(payment: PaymentDetail['payment'], expiresAt: Date) {
  if (payment.status === 'requires_capture')
    return [
      { label: 'Captured', value: `Not yet (${formatMoney(payment.amount, payment.currency)} authorized)` },
      {
        label: 'Authorization expires',
        value: (
          <>
            <RelativeTime value={expiresAt} exact />
            <span className="block text-xs text-gray-600">
              <RelativeTime value={expiresAt} />, {AUTHORIZATION_DAYS} days after it was made
            </span>
          </>
        ),
      },
    ];
  if (payment.status === 'canceled')
    return [
      {
        label: 'Canceled',
        value: (
          <>
            {payment.canceledAt ? <RelativeTime value={payment.canceledAt} exact /> : 'Yes'}
            <span className="block text-xs text-gray-600">
              {payment.cancellationReason === 'expired'
                ? `Expired: not captured within ${AUTHORIZATION_DAYS} days`
                : 'By you: the hold was released'}
            </span>
          </>
        ),
      },
    ];
  return [{ label: 'Captured', value: formatMoney(payment.amountCaptured, payment.currency) }];
}
