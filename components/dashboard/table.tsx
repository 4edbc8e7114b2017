import Link from 'next/link';
import type { ReactNode } from 'react';
import { classNames } from '@/components/ui/class-names';
import { ScrollArea } from '@/components/ui/scroll-area';
import { PendingHint } from './link-pending';

// Dense tables: amounts right-aligned in tabular figures, rows that open their detail page from anywhere
// on the row, and a table that scrolls sideways inside its panel rather than squeezing its columns.
// A page-long list may ask for a header that sticks while the page scrolls: that needs the table not to
// be a scroll box itself, so it is only asked for from xl up, where the list's columns fit.

export function Table({
  label,
  children,
  className,
  stickyHeader = false,
}: {
  label: string;
  children: ReactNode;
  className?: string;
  stickyHeader?: boolean;
}) {
  return (
    <ScrollArea
      label={label}
      className={classNames('overflow-x-auto', stickyHeader && 'xl:overflow-visible', className)}
    >
      <table aria-label={label} className="min-w-full border-separate border-spacing-0 text-left text-sm">
        {children}
      </table>
    </ScrollArea>
  );
}

export function Th({
  children,
  align = 'left',
  className,
}: {
  children?: ReactNode;
  align?: 'left' | 'right';
  className?: string;
}) {
  return (
    <th
      scope="col"
      className={classNames(
        'sticky top-0 z-10 border-b border-gray-200 bg-gray-50/95 px-4 py-2.5 text-xs font-semibold tracking-wide whitespace-nowrap text-gray-600 uppercase backdrop-blur',
        align === 'right' ? 'text-right' : 'text-left',
        className,
      )}
    >
      {children}
    </th>
  );
}

export function Td({
  children,
  align = 'left',
  className,
}: {
  children?: ReactNode;
  align?: 'left' | 'right';
  className?: string;
}) {
  return (
    <td
      className={classNames(
        'border-b border-gray-100 px-4 py-3 align-middle text-gray-900',
        align === 'right' ? 'text-right tabular-nums' : undefined,
        className,
      )}
    >
      {children}
    </td>
  );
}

/** A row that opens `href` when clicked anywhere; its first link carries the row's accessible name. */
export function Row({ children, className }: { children: ReactNode; className?: string }) {
  return <tr className={classNames('group relative hover:bg-gray-50', className)}>{children}</tr>;
}

/** The link that covers the whole row (its ::after spans the <tr>). Buttons in the row sit above it. */
export function RowLink({ href, children, className }: { href: string; children: ReactNode; className?: string }) {
  return (
    <Link
      href={href}
      className={classNames(
        'font-medium text-gray-900 after:absolute after:inset-0 after:content-[""] focus-visible:outline-none',
        'group-focus-within:underline',
        className,
      )}
    >
      {children}
      <PendingHint />
    </Link>
  );
}
