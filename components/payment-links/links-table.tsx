import { RelativeTime } from '@/components/dashboard/relative-time';
import { DateHeading } from '@/components/dashboard/time-zone';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Row, RowLink, Table, Td, Th } from '@/components/dashboard/table';
import { CopyButton } from '@/components/ui/copy-button';
import type { PaymentLink } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/core/money';
import type { LinkSales } from '@/lib/payment-links/dashboard';

export type PaymentLinkRow = PaymentLink & { url: string; sales: LinkSales };

/** A merchant's links, newest first: what each sells, whether it is on, and what it has sold. */
export function PaymentLinksTable({ links }: { links: PaymentLinkRow[] }) {
  return (
    <Table label="Payment links">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th align="right">Price</Th>
          <Th className="hidden sm:table-cell">Status</Th>
          <Th align="right" className="hidden sm:table-cell">
            Sold
          </Th>
          <Th className="hidden md:table-cell">Link</Th>
          <Th className="hidden lg:table-cell">
            <DateHeading>Created</DateHeading>
          </Th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <Row key={link.id}>
            <Td className="max-w-52 sm:max-w-64">
              <RowLink href={`/dashboard/payment-links/${link.id}`} className="block truncate">
                {link.name}
              </RowLink>
              {link.description && <span className="block truncate text-xs text-gray-600">{link.description}</span>}
              {/* on a phone the status rides under the name instead of in a column of its own */}
              <span className="mt-1 block sm:hidden">
                <StatusBadge status={link.active ? 'active' : 'inactive'} />
              </span>
            </Td>
            <Td align="right" className="whitespace-nowrap">
              {formatMoney(link.amount, link.currency)}
            </Td>
            <Td className="hidden sm:table-cell">
              <StatusBadge status={link.active ? 'active' : 'inactive'} />
            </Td>
            <Td align="right" className="hidden whitespace-nowrap sm:table-cell">
              {link.sales.payments === 0 ? (
                <span className="text-gray-600">None yet</span>
              ) : (
                <>
                  {formatMoney(link.sales.volume, link.currency)}
                  <span className="block text-xs text-gray-600">
                    {link.sales.payments} payment{link.sales.payments === 1 ? '' : 's'}
                  </span>
                </>
              )}
            </Td>
            <Td className="hidden md:table-cell">
              <CopyButton text={link.url} label={`Copy the link of ${link.name}`} compact className="relative z-10" />
            </Td>
            <Td className="hidden text-gray-700 lg:table-cell">
              <RelativeTime value={link.createdAt} />
            </Td>
          </Row>
        ))}
      </tbody>
    </Table>
  );
}
