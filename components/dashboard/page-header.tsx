import Link from 'next/link';
import type { ReactNode } from 'react';
import { ChevronLeftIcon } from '@/components/ui/icons';

/** Every dashboard page opens with this: title, one line saying what the page is for, the main action. */
export function PageHeader({
  title,
  description,
  action,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  back?: { href: string; label: string };
}) {
  return (
    <header className="mb-6">
      {back && (
        <Link
          href={back.href}
          className="mb-3 inline-flex items-center gap-1 rounded text-sm font-medium text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <ChevronLeftIcon />
          {back.label}
        </Link>
      )}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-gray-900">{title}</h1>
          {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
        </div>
        {action && <div className="flex shrink-0 flex-wrap gap-2">{action}</div>}
      </div>
    </header>
  );
}

/** A white panel with an optional heading row; the building block of every page. */
export function Panel({
  title,
  description,
  action,
  children,
  className,
  id,
  flush = false,
}: {
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
  /** no padding around the body: for tables and lists that run edge to edge */
  flush?: boolean;
}) {
  return (
    <section
      id={id}
      aria-labelledby={title && id ? `${id}-title` : undefined}
      className={`rounded-xl bg-white shadow-sm ring-1 ring-gray-200 ${className ?? ''}`}
    >
      {title && (
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-gray-100 px-5 py-4">
          <div className="min-w-0">
            <h2 id={id ? `${id}-title` : undefined} className="text-base font-semibold text-gray-900">
              {title}
            </h2>
            {description && <p className="mt-0.5 text-sm text-gray-600">{description}</p>}
          </div>
          {action && <div className="shrink-0">{action}</div>}
        </div>
      )}
      <div className={flush ? undefined : 'px-5 py-4'}>{children}</div>
    </section>
  );
}

/** Label–value pairs in two columns, values wrapping rather than pushing the page wider. */
export function DetailList({ items }: { items: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-[minmax(6.5rem,auto)_1fr] gap-x-4 gap-y-3 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr] sm:gap-x-6">
      {items.map((item) => (
        <div key={item.label} className="contents">
          <dt className="text-gray-600">{item.label}</dt>
          <dd className="min-w-0 break-words text-gray-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
