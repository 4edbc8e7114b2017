import type { Payment } from '@/lib/generated/prisma/client';
import { describeMethodDetails, formatMoney } from '@/lib/dashboard/format';
import { paymentListStatus } from '@/lib/dashboard/payments';
import { RelativeTime } from './relative-time';
import { StatusBadge } from './status-badge';
import { Row, RowLink, Table, Td, Th } from './table';

/** Payments, newest first: amount and status first, then how and for which order. */
export function PaymentsTable({
  payments,
  label = 'Payments',
  compact = false,
}: {
  payments: (Payment & { amountRefunded: number })[];
  label?: string;
  /** amount, status, method and date only: for a panel beside another */
  compact?: boolean;
}) {
  const wide = compact ? 'hidden' : 'hidden md:table-cell';
  const widest = compact ? 'hidden' : 'hidden xl:table-cell';
  return (
    <Table label={label} stickyHeader={!compact}>
      <thead>
        <tr>
          <Th align="right">Amount</Th>
          <Th>Status</Th>
          <Th className="hidden sm:table-cell">Payment method</Th>
          <Th className={wide}>Order reference</Th>
          <Th className={widest}>Payment id</Th>
          <Th>Date</Th>
        </tr>
      </thead>
      <tbody>
        {payments.map((payment) => (
          <Row key={payment.id}>
            <Td align="right" className="whitespace-nowrap">
              <RowLink href={`/dashboard/payments/${payment.id}`}>{formatMoney(payment.amount, payment.currency)}</RowLink>
              {paymentListStatus(payment) === 'partially_refunded' && (
                <span className="block text-xs text-gray-600">{formatMoney(payment.amountRefunded, payment.currency)} refunded</span>
              )}
            </Td>
            <Td>
              <StatusBadge status={paymentListStatus(payment)} />
            </Td>
            <Td className="hidden whitespace-nowrap text-gray-700 sm:table-cell">{describeMethodDetails(payment.paymentMethod, payment.methodDetails)}</Td>
            <Td className={`${wide} max-w-48 truncate text-gray-700`}>{payment.orderReference}</Td>
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
