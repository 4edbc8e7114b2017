import Link from 'next/link';
import type { RefundRequest } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/dashboard/format';
import { ActionButton, ConfirmAction, type ObjectAction } from './action-forms';
import { RelativeTime } from './relative-time';
import { StatusBadge } from './status-badge';
import { Table, Td, Th } from './table';

export type RefundRowActions = { approve: ObjectAction; decline: ObjectAction; cancel: ObjectAction };

/**
 * Refund requests with what can still be done to them: a requested refund can be canceled, and under
 * the manual policy approved or declined.
 */
export function RefundsTable({
  refunds,
  actions,
  policy,
  showPayment = true,
}: {
  refunds: (RefundRequest & { payment?: { orderReference: string } })[];
  actions: RefundRowActions;
  policy: 'automatic' | 'manual';
  showPayment?: boolean;
}) {
  return (
    <Table label="Refund requests">
      <thead>
        <tr>
          <Th align="right">Amount</Th>
          <Th>Status</Th>
          {showPayment && <Th>Payment</Th>}
          <Th className="hidden md:table-cell">Reason</Th>
          <Th>Requested</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {refunds.map((refund) => {
          const amount = formatMoney(refund.amount, refund.currency);
          return (
            <tr key={refund.id} className="align-top">
              <Td align="right" className="font-medium whitespace-nowrap">
                {amount}
                <span className="block font-mono text-[11px] font-normal text-gray-500">{refund.id}</span>
              </Td>
              <Td>
                <StatusBadge status={refund.status} />
                {refund.failureReason && <span className="mt-1 block max-w-56 text-xs text-red-700">{refund.failureReason}</span>}
              </Td>
              {showPayment && (
                <Td>
                  <Link href={`/dashboard/payments/${refund.paymentId}`} className="font-medium text-accent-700 hover:underline">
                    {refund.payment?.orderReference ?? refund.paymentId}
                  </Link>
                </Td>
              )}
              <Td className="hidden max-w-64 min-w-40 text-gray-700 md:table-cell">
                <span className="line-clamp-2 break-words">{refund.reason ?? <span className="text-gray-500">—</span>}</span>
                {refund.cryptoRefundDestinationNote && (
                  <span className="mt-1 block text-xs text-gray-600">Destination: {refund.cryptoRefundDestinationNote}</span>
                )}
              </Td>
              <Td className="text-gray-700">
                <RelativeTime value={refund.createdAt} />
              </Td>
              <Td>
                {refund.status === 'requested' && (
                  <div className="flex flex-wrap justify-end gap-2">
                    {policy === 'manual' && (
                      <>
                        <ActionButton action={actions.approve} fields={{ refundId: refund.id }} pendingLabel="Approving…" variant="primary">
                          Approve
                        </ActionButton>
                        <ConfirmAction
                          action={actions.decline}
                          fields={{ refundId: refund.id }}
                          trigger="Decline"
                          title={`Decline the refund of ${amount}?`}
                          description="The customer is not refunded and the amount becomes refundable again. This cannot be undone."
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
                      title={`Cancel the refund of ${amount}?`}
                      description="The request is withdrawn before it reaches the provider, and the amount becomes refundable again."
                      confirmLabel="Cancel refund"
                      pendingLabel="Canceling…"
                    />
                  </div>
                )}
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
