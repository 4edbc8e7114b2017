'use client';

import { useEffect, useState } from 'react';
import { exactTime, relativeTime } from '@/lib/dashboard/format';

/**
 * "5 minutes ago", with the exact local time on hover. The server does not know the reader's time zone,
 * so it renders the UTC time and the browser replaces it with local words once it runs.
 */
export function RelativeTime({ value, exact = false }: { value: string | Date; exact?: boolean }) {
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  const [text, setText] = useState<{ label: string; title: string } | null>(null);

  useEffect(() => {
    const update = () => setText({ label: exact ? exactTime(date) : relativeTime(date), title: exactTime(date) });
    update();
    if (exact) return;
    const timer = window.setInterval(update, 30_000);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [iso, exact]);

  return (
    <time dateTime={iso} title={text?.title ?? iso} className="whitespace-nowrap">
      {text?.label ?? `${iso.slice(0, 16).replace('T', ' ')} UTC`}
    </time>
  );
}
