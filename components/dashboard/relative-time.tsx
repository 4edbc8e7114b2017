'use client';

import { useEffect, useState } from 'react';
import { exactTime, relativeTime } from '@/lib/dashboard/format';
import { useSandboxNow } from './sandbox-clock';
import { useTimeZone } from './time-zone';

/**
 * "5 minutes ago", with the exact time and its zone on hover. In the dashboard the zone is the
 * dashboard's (components/dashboard/time-zone.tsx), so the server renders the exact time and the browser
 * only swaps in words relative to the account's clock (sandbox-clock.tsx: its test clock may be ahead).
 * Elsewhere (a customer's receipt) the server cannot know the reader's zone: it renders UTC and the
 * browser replaces it with local time once it runs.
 */
export function RelativeTime({ value, exact = false }: { value: string | Date; exact?: boolean }) {
  const timeZone = useTimeZone();
  const sandboxNow = useSandboxNow();
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  const [text, setText] = useState<{ label: string; title: string } | null>(null);

  useEffect(() => {
    const update = () =>
      setText({
        label: exact ? exactTime(date, timeZone) : relativeTime(date, sandboxNow(), timeZone),
        title: exactTime(date, timeZone),
      });
    update();
    if (exact) return;
    const timer = window.setInterval(update, 30_000);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [iso, exact, timeZone, sandboxNow]);

  const first = !timeZone
    ? `${iso.slice(0, 16).replace('T', ' ')} UTC`
    : exact
      ? exactTime(date, timeZone)
      : date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone });
  return (
    <time dateTime={iso} title={text?.title ?? first} className={exact ? undefined : 'whitespace-nowrap'}>
      {text?.label ?? first}
    </time>
  );
}
