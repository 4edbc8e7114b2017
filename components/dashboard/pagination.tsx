import Link from 'next/link';
import { classNames } from '@/components/ui/class-names';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { countLimit } from '@/lib/db/page';

/**
 * "Showing 26–50 of 132" with Previous / Next links that keep the current filters. The lists count only
 * so far past the page (lib/db/page.ts): a total that reached that limit is shown as "1025+".
 */
export function Pagination({
  page,
  pageSize,
  total,
  hrefFor,
}: {
  page: number;
  pageSize: number;
  total: number;
  hrefFor: (page: number) => string;
}) {
  if (total === 0) return null;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const atLeast = total >= countLimit((page - 1) * pageSize);
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
      <p className="text-gray-600">
        {first > total ? (
          'No rows on this page'
        ) : (
          <>
            Showing <span className="font-medium text-gray-900">{first}</span>–
            <span className="font-medium text-gray-900">{last}</span> of{' '}
            <span className="font-medium text-gray-900">
              {total}
              {atLeast && '+'}
            </span>
          </>
        )}
      </p>
      <div className="flex gap-2">
        <PageLink href={page > 1 ? hrefFor(Math.min(page - 1, pageCount)) : null} label="Previous" icon="left" />
        <PageLink href={page < pageCount ? hrefFor(page + 1) : null} label="Next" icon="right" />
      </div>
    </nav>
  );
}

function PageLink({ href, label, icon }: { href: string | null; label: string; icon: 'left' | 'right' }) {
  const content = (
    <>
      {icon === 'left' && <ChevronLeftIcon />}
      {label}
      {icon === 'right' && <ChevronRightIcon />}
    </>
  );
  const base = 'inline-flex h-9 items-center gap-1 rounded-lg border px-3 font-medium';
  if (!href) {
    return (
      <span aria-disabled="true" className={classNames(base, 'cursor-not-allowed border-gray-200 text-gray-400')}>
        {content}
      </span>
    );
  }
  return (
    <Link
      href={href}
      className={classNames(
        base,
        'border-gray-300 bg-white text-gray-800 shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-accent-600',
      )}
    >
      {content}
    </Link>
  );
}
