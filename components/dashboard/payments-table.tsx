import type { Payment } from '@/lib/generated/prisma/client';
import { describeMethodDetails, formatMoney } from '@/lib/dashboard/format';
import { paymentListStatus } from '@/lib/payments/dashboard';
import { RelativeTime } from './relative-time';
import { DateHeading } from './time-zone';
import { StatusBadge } from './status-badge';
import { Row, RowLink, Table, Td, Th } from './table';

/** Payments, newest first: amount and status first, then how and for which order. */
export function PaymentsTable({
  payments,
  label = 'Payments',
  compact = false,
}: {
  /** orderLabel: how the dashboard names the order (a payment link's sale by the link's name) */
  /** attempts: every try on the payment's checkout session, said when there was more than one */
  payments: (Payment & { amountRefunded: number; orderLabel?: string; attempts?: number })[];
  label?: string;
  /** amount, status, method and date only, the method wrapping: for a panel beside another */
  compact?: boolean;
}) {
  // From xl up the list's header sticks, so the table may not scroll inside its card: every column shown
  // there must fit 1280 px beside the sidebar (e2e/dashboard-tables.spec.ts). The payment id, which the
  // detail page shows and the search box takes, waits for 2xl.
  const wide = compact ? 'hidden' : 'hidden md:table-cell';
  const widest = compact ? 'hidden' : 'hidden 2xl:table-cell';
  return (
    // beside another panel its cells take less room at their sides, so the widest rows fit 1280 px too
    <Table label={label} stickyHeader={!compact} className={compact ? '[&_td]:px-3 [&_th]:px-3' : undefined}>
      <thead>
        <tr>
          <Th align="right">Amount</Th>
          <Th>Status</Th>
          {/* headers never wrap: beside another panel the method column's header is its narrowest name */}
          <Th className="hidden sm:table-cell">{compact ? 'Method' : 'Payment method'}</Th>
          <Th className={wide}>Order reference</Th>
          <Th className={widest}>Payment id</Th>
          <Th>
            <DateHeading />
          </Th>
        </tr>
      </thead>
      <tbody>
        {payments.map((payment) => (
          <Row key={payment.id}>
            <Td align="right" className="whitespace-nowrap">
              <RowLink href={`/dashboard/payments/${payment.id}`}>
                {formatMoney(payment.amount, payment.currency)}
              </RowLink>
              {paymentListStatus(payment) === 'partially_refunded' && (
                <span className="block text-xs text-gray-600">
                  {formatMoney(payment.amountRefunded, payment.currency)} refunded
                </span>
              )}
            </Td>
            <Td>
              <StatusBadge status={paymentListStatus(payment)} />
              {payment.attempts !== undefined && payment.attempts > 1 && (
                <span className="mt-1 block text-xs whitespace-nowrap text-gray-600">{payment.attempts} attempts</span>
              )}
            </Td>
            <Td className={`hidden text-gray-700 sm:table-cell ${compact ? 'min-w-24' : 'whitespace-nowrap'}`}>
              {describeMethodDetails(payment.paymentMethod, payment.methodDetails)}
            </Td>
            <Td className={`${wide} max-w-48 truncate text-gray-700`}>
              <span title={payment.orderReference}>{payment.orderLabel ?? payment.orderReference}</span>
              {/* who paid, under the order: one more line rather than a column the list's width has no room for */}
              {payment.customerEmail && (
                <span className="block truncate text-xs text-gray-600">{payment.customerEmail}</span>
              )}
            </Td>
            <Td className={`${widest} font-mono text-xs text-gray-600`}>{payment.id}</Td>
            <Td className="text-gray-700">
              <RelativeTime value={payment.createdAt} />
            </Td>
          </Row>
        ))}
      </tbody>
    </Table>
  );
}
