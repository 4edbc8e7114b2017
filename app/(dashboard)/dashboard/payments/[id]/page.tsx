import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { EmptyState } from '@/components/dashboard/empty-state';
import { OrderItems } from '@/components/dashboard/order-items';
import { IdText } from '@/components/dashboard/id-text';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { RefundForm } from '@/components/dashboard/refund-form';
import { RefundsTable } from '@/components/dashboard/refunds-table';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Timeline } from '@/components/dashboard/timeline';
import { RefundIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { describeMethodDetails, formatMoney, toMajorInput } from '@/lib/dashboard/format';
import { getPaymentDetail } from '@/lib/dashboard/payments';
import { describeFailure } from '@/lib/dashboard/timeline';
import { approveRefundAction, cancelRefundAction, declineRefundAction } from '../../refunds/actions';
import { refundPaymentAction } from './actions';

export const metadata: Metadata = { title: 'Payment' };

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { merchantId } = await requireMerchant();
  const { id } = await params;
  const database = await db();
  const detail = await getPaymentDetail(database, merchantId, id);
  if (!detail) notFound();
  const { payment, session, refunds } = detail;
  const { refundPolicy } = await database.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { refundPolicy: true } });
  const amount = formatMoney(payment.amount, payment.currency);

  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/payments', label: 'Payments' }}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {amount}
            <StatusBadge status={payment.status} />
          </span>
        }
        description={<IdText id={payment.id} label="Copy payment id" />}
      />
      {/* two columns from lg; on a phone one, with the Refund form right after the details */}
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[3fr_2fr] lg:items-start">
        <div className="contents lg:block lg:min-w-0 lg:space-y-6">
          <Panel title="Details" className="order-1">
            <DetailList
              items={[
                { label: 'Amount', value: amount },
                ...(payment.status === 'failed' ? [{ label: 'Failure', value: describeFailure(payment.failureCode) }] : []),
                { label: 'Refunded', value: formatMoney(payment.amountRefunded, payment.currency) },
                { label: 'Refundable', value: formatMoney(detail.amountRefundable, payment.currency) },
                { label: 'Payment method', value: describeMethodDetails(payment.paymentMethod, payment.methodDetails) },
                { label: 'Order reference', value: payment.orderReference },
                {
                  label: 'Checkout session',
                  value: (
                    <Link href={`/dashboard/checkout-sessions/${session.id}`} className="font-mono text-xs text-accent-700 hover:underline">
                      {session.id}
                    </Link>
                  ),
                },
                { label: 'Created', value: <RelativeTime value={payment.createdAt} exact /> },
              ]}
            />
          </Panel>
          <Panel title="Refunds" flush className="order-3">
            {refunds.length === 0 ? (
              <EmptyState icon={<RefundIcon />} title="No refunds" headingLevel={3}>
                {payment.status === 'succeeded' ? 'Refunds of this payment, from here or from the API, are listed here.' : 'Only succeeded payments can be refunded.'}
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
          </Panel>
          <Panel title="Timeline" className="order-4">
            <Timeline entries={detail.timeline} />
          </Panel>
        </div>
        <div className="contents lg:block lg:min-w-0 lg:space-y-6">
          <Panel className="order-2" title="Refund" description={refundPolicy === 'manual' ? 'Your refund policy is manual: refunds wait for approval.' : undefined}>
            {payment.status !== 'succeeded' ? (
              <p className="text-sm text-gray-600">This payment failed, so there is nothing to refund.</p>
            ) : (
              <RefundForm
                action={refundPaymentAction}
                paymentId={payment.id}
                currency={payment.currency}
                refundableLabel={formatMoney(detail.amountRefundable, payment.currency)}
                refundableInput={toMajorInput(detail.amountRefundable)}
                isUsdc={payment.paymentMethod === 'usdc'}
                policy={refundPolicy}
                nothingLeft={detail.amountRefundable === 0}
              />
            )}
          </Panel>
          <Panel title="Items" flush className="order-5">
            <OrderItems items={session.items} currency={session.currency} shippingAmount={session.shippingAmount} taxAmount={session.taxAmount} amount={session.amount} />
          </Panel>
        </div>
      </div>
    </>
  );
}
