'use client';

import Link from 'next/link';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { describeOffset } from '@/lib/dashboard/format';
import { useTimeZone } from './time-zone';

// The account's clock on the client: the wall clock plus the test clock's offset (lib/test-clocks), so that
// "5 minutes ago" of a payment made on an advanced clock is measured against that clock, not the reader's.

const OffsetContext = createContext(0);

/** Now on the account's clock; the wall clock outside the dashboard. */
export function useSandboxNow(): () => Date {
  const offsetMs = useContext(OffsetContext);
  return useCallback(() => new Date(Date.now() + offsetMs), [offsetMs]);
}

export function SandboxClockProvider({ offsetSeconds, children }: { offsetSeconds: number; children: ReactNode }) {
  return <OffsetContext.Provider value={offsetSeconds * 1000}>{children}</OffsetContext.Provider>;
}

const minuteOf = (date: Date, timeZone: string | undefined) =>
  date.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  });

/**
 * "Sandbox time: Nov 27, 2026, 10:21 AM EST (+1 h 0 min)" at the top of every dashboard page while the
 * test clock is ahead, linking to the page that moves it. Its minute follows the clock as the page stays open.
 */
export function SandboxTimeBanner({ offsetSeconds, now }: { offsetSeconds: number; now: string }) {
  const timeZone = useTimeZone();
  const sandboxNow = useSandboxNow();
  const [shown, setShown] = useState(() => minuteOf(new Date(now), timeZone));
  useEffect(() => {
    const update = () => setShown(minuteOf(sandboxNow(), timeZone));
    update();
    const timer = window.setInterval(update, 15_000);
    return () => window.clearInterval(timer);
  }, [sandboxNow, timeZone]);
  if (offsetSeconds <= 0) return null;
  return (
    <div className="mb-5 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span data-testid="sandbox-time">
          <span className="font-semibold">Sandbox time:</span> {shown} ({describeOffset(offsetSeconds)})
        </span>
        <Link href="/dashboard/developers/test-clock" className="font-medium underline hover:no-underline">
          Test clock
        </Link>
      </p>
    </div>
  );
}
