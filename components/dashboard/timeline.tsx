import Link from 'next/link';
import { classNames } from '@/components/ui/class-names';
import type { TimelineEntry } from '@/lib/payments/dashboard-timeline';
import { RelativeTime } from './relative-time';

const DOTS: Record<TimelineEntry['tone'], string> = {
  neutral: 'bg-gray-400',
  info: 'bg-blue-500',
  success: 'bg-green-600',
  warning: 'bg-amber-500',
  danger: 'bg-red-600',
};

/** What happened, oldest first, on a vertical line; events in monospace, linked to their page. */
export function Timeline({ entries }: { entries: TimelineEntry[] }) {
  return (
    <ol className="relative space-y-4 border-l border-gray-200 pl-5">
      {entries.map((entry, index) => (
        <li key={index} className="relative">
          <span
            aria-hidden="true"
            className={classNames(
              'absolute top-1.5 -left-[25px] size-2.5 rounded-full ring-4 ring-white',
              DOTS[entry.tone],
            )}
          />
          <div className="flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
            <p
              className={classNames(
                'text-sm',
                entry.kind === 'event' ? 'font-mono text-xs text-gray-700' : 'font-medium text-gray-900',
              )}
            >
              {entry.href ? (
                <Link href={entry.href} className="hover:underline">
                  {entry.kind === 'event' ? `Event ${entry.title}` : entry.title}
                </Link>
              ) : (
                entry.title
              )}
            </p>
            <span className="shrink-0 text-xs text-gray-600">
              <RelativeTime value={entry.at} exact />
            </span>
          </div>
          {entry.detail && entry.kind !== 'event' && (
            <p className="mt-0.5 text-sm break-words text-gray-600">{entry.detail}</p>
          )}
        </li>
      ))}
    </ol>
  );
}
