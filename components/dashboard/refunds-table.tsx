import Link from 'next/link';
import type { RefundRequest } from '@/lib/generated/prisma/client';
import { formatMoney, refundReasonLabel } from '@/lib/dashboard/format';
import { ConfirmAction, type ObjectAction } from './action-forms';
import { InlineMetadata } from './metadata-list';
import { DetailList } from './page-header';
import { RelativeTime } from './relative-time';
import { DateHeading } from './time-zone';
import { StatusBadge } from './status-badge';
import { Table, Td, Th } from './table';

export type RefundRowActions = { approve: ObjectAction; decline: ObjectAction; cancel: ObjectAction };

type Refund = RefundRequest & { payment?: { orderReference: string } };
type RefundListProps = {
  refunds: Refund[];
  actions: RefundRowActions;
  policy: 'automatic' | 'manual';
  showPayment?: boolean;
  /** from which width the table has room: md on a full-width page, 2xl in a side column */
  tableFrom?: 'md' | '2xl';
};

// whole class names, so Tailwind sees them
const CARDS_UNTIL = { md: 'md:hidden', '2xl': '2xl:hidden' };
const TABLE_FROM = { md: 'hidden md:block', '2xl': 'hidden 2xl:block' };

// one list of refunds per page, so the hint's ids are unique
const DECLINE_HINT_ID = 'refund-decline-hint';
const CANCEL_HINT_ID = 'refund-cancel-hint';

/**
 * Refund requests with what can still be done to them: a requested refund can be canceled, and under
 * the manual policy approved or declined. A table from md up; on a phone, one card per refund so the
 * buttons are in reach instead of off to the side. Put it inside an ActionAnnouncer that also holds the
 * list's empty state, so what an action did is still said when its row leaves the list.
 */
export function RefundsTable(props: RefundListProps) {
  const from = props.tableFrom ?? 'md';
  const declinable = props.policy === 'manual' && props.refunds.some((refund) => refund.status === 'requested');
  return (
    <>
      {declinable && <DeclineOrCancelHint />}
      <div className={CARDS_UNTIL[from]}>
        <RefundCards {...props} />
      </div>
      <div className={TABLE_FROM[from]}>
        <RefundRows {...props} />
      </div>
    </>
  );
}

/** Decline and Cancel both end a waiting refund; what differs is who is saying no, and why. */
function DeclineOrCancelHint() {
  return (
    <div className="mx-4 my-3 space-y-1 rounded-lg bg-gray-50 px-3 py-2 text-xs text-gray-700">
      <p id={DECLINE_HINT_ID}>
        <span className="font-medium text-gray-900">Decline</span> refuses the customer’s refund: the money stays with
        you.
      </p>
      <p id={CANCEL_HINT_ID}>
        <span className="font-medium text-gray-900">Cancel</span> withdraws a request made by mistake (a wrong amount or
        payment), as <code className="font-mono break-all">POST /v1/refund-requests/&#123;id&#125;/cancel</code> does.
      </p>
      <p>Either way nothing reaches the provider and the amount can be refunded again.</p>
    </div>
  );
}

function RefundRows({ refunds, actions, policy, showPayment = true }: RefundListProps) {
  return (
    <Table label="Refund requests">
      <thead>
        <tr>
          <Th align="right">Amount</Th>
          <Th>Status</Th>
          {showPayment && <Th>Payment</Th>}
          <Th>Reason</Th>
          <Th>
            <DateHeading>Requested</DateHeading>
          </Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {refunds.map((refund) => (
          <tr key={refund.id} className="align-top">
            <Td align="right" className="font-medium whitespace-nowrap">
              {formatMoney(refund.amount, refund.currency)}
              <span className="block font-mono text-[11px] font-normal text-gray-500">{refund.id}</span>
            </Td>
            <Td>
              <StatusBadge status={refund.status} />
              {refund.failureReason && (
                <span className="mt-1 block max-w-56 text-xs text-red-700">{refund.failureReason}</span>
              )}
            </Td>
            {showPayment && (
              <Td>
                <PaymentLink refund={refund} />
              </Td>
            )}
            <Td className="max-w-64 min-w-40 text-gray-700">
              <RefundReason refund={refund} />
            </Td>
            <Td className="text-gray-700">
              <RelativeTime value={refund.createdAt} />
            </Td>
            <Td>
              <RefundActions refund={refund} actions={actions} policy={policy} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function RefundCards({ refunds, actions, policy, showPayment = true }: RefundListProps) {
  return (
    <ul aria-label="Refund requests" className="divide-y divide-gray-100">
      {refunds.map((refund) => (
        <li key={refund.id} className="space-y-2 px-4 py-3 text-sm">
          <div className="flex items-center justify-between gap-3">
            <span className="flex items-center gap-2">
              <span className="font-semibold text-gray-900">{formatMoney(refund.amount, refund.currency)}</span>
              <StatusBadge status={refund.status} />
            </span>
            <span className="text-gray-600">
              <RelativeTime value={refund.createdAt} />
            </span>
          </div>
          {showPayment && <PaymentLink refund={refund} />}
          <div className="text-gray-700">
            <RefundReason refund={refund} />
          </div>
          {refund.failureReason && <p className="text-xs text-red-700">{refund.failureReason}</p>}
          <RefundActions refund={refund} actions={actions} policy={policy} align="start" />
        </li>
      ))}
    </ul>
  );
}

function PaymentLink({ refund }: { refund: Refund }) {
  return (
    <Link href={`/dashboard/payments/${refund.paymentId}`} className="font-medium text-accent-700 hover:underline">
      {refund.payment?.orderReference ?? refund.paymentId}
    </Link>
  );
}

function RefundReason({ refund }: { refund: Refund }) {
  return (
    <>
      <span className="line-clamp-2 break-words">
        {refund.reason !== null ? (
          refundReasonLabel(refund.reason)
        ) : (
          <span className="text-gray-500">No reason given</span>
        )}
      </span>
      {refund.cryptoRefundDestinationNote && (
        <span className="mt-1 block text-xs text-gray-600">Destination: {refund.cryptoRefundDestinationNote}</span>
      )}
      <InlineMetadata metadata={refund.metadata} />
    </>
  );
}

/** "payment pay_… for order order-42": which money a dialog is about. */
function RefundSubject({ refund }: { refund: Refund }) {
  return (
    <>
      payment <span className="font-mono text-xs break-all text-gray-900">{refund.paymentId}</span>
      {refund.payment && (
        <>
          {' '}
          for order <span className="font-medium break-all text-gray-900">{refund.payment.orderReference}</span>
        </>
      )}
    </>
  );
}

function RefundActions({
  refund,
  actions,
  policy,
  align = 'end',
}: {
  refund: Refund;
  actions: RefundRowActions;
  policy: 'automatic' | 'manual';
  align?: 'start' | 'end';
}) {
  if (refund.status !== 'requested') return null;
  const amount = formatMoney(refund.amount, refund.currency);
  return (
    <div className={`flex flex-wrap gap-2 ${align === 'end' ? 'justify-end' : ''}`}>
      {policy === 'manual' && (
        <>
          <ConfirmAction
            action={actions.approve}
            fields={{ refundId: refund.id }}
            trigger="Approve"
            triggerVariant="primary"
            title={`Approve the refund of ${amount}?`}
            description={
              <>
                <p>It goes back to the customer: the provider sends it at once, and after that it cannot be undone.</p>
                <div className="mt-4 rounded-lg bg-gray-50 px-4 py-3">
                  <DetailList
                    items={[
                      { label: 'Amount', value: <span className="font-semibold">{amount}</span> },
                      {
                        label: 'Payment',
                        value: <span className="font-mono text-xs break-all">{refund.paymentId}</span>,
                      },
                      ...(refund.payment ? [{ label: 'Order', value: refund.payment.orderReference }] : []),
                      {
                        label: 'Reason',
                        value: refund.reason !== null ? refundReasonLabel(refund.reason) : 'No reason given',
                      },
                    ]}
                  />
                </div>
              </>
            }
            confirmVariant="primary"
            confirmLabel="Approve refund"
            cancelLabel="Not now"
            pendingLabel="Approving…"
          />
          <ConfirmAction
            action={actions.decline}
            fields={{ refundId: refund.id }}
            trigger="Decline"
            triggerDescribedBy={DECLINE_HINT_ID}
            title={`Decline the refund of ${amount}?`}
            description={
              <>
                You refuse the refund of <RefundSubject refund={refund} />: the customer is not refunded and the amount
                becomes refundable again. This cannot be undone.
              </>
            }
            confirmLabel="Decline refund"
            pendingLabel="Declining…"
          />
        </>
      )}
      <ConfirmAction
        action={actions.cancel}
        fields={{ refundId: refund.id }}
        trigger="Cancel"
        triggerVariant="ghost"
        triggerDescribedBy={policy === 'manual' ? CANCEL_HINT_ID : undefined}
        title={`Cancel the refund of ${amount}?`}
        description={
          <>
            The request on <RefundSubject refund={refund} /> is withdrawn before it reaches the provider, and the amount
            becomes refundable again.
          </>
        }
        confirmLabel="Cancel refund"
        pendingLabel="Canceling…"
      />
    </div>
  );
}
