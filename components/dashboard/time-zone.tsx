'use client';

import { useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { shortZoneName, TIME_ZONE_COOKIE } from '@/lib/core/time-zone';

// The dashboard's time zone on the client: every date below the provider is shown in it, so the server's
// first render and the browser's agree. lib/dashboard/viewer-time-zone.ts decides which zone it is.

const TimeZoneContext = createContext<string | undefined>(undefined);

/** The dashboard's zone; undefined outside the dashboard (a customer's receipt uses their own). */
export function useTimeZone(): string | undefined {
  return useContext(TimeZoneContext);
}

// one refresh per zone per page load, even if the server will not take what the browser reports
let refreshedFor: string | null = null;

/** Tells the server the browser's zone in a cookie, which every later request carries; the zone, if any. */
export function reportBrowserTimeZone(): string | undefined {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (own) document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(own)}; path=/; max-age=31536000; samesite=lax`;
  return own;
}

/**
 * On the sign-in and sign-up pages: the zone is reported before the form is sent, so the first dashboard
 * page drawn after it is already in the reader's zone, not in UTC until TimeZoneProvider's refresh.
 */
export function ReportTimeZone() {
  useEffect(() => {
    reportBrowserTimeZone();
  }, []);
  return null;
}

export function TimeZoneProvider({
  timeZone,
  followsBrowser,
  reported,
  children,
}: {
  timeZone: string;
  /** no zone chosen in Settings: the browser's is the one to show */
  followsBrowser: boolean;
  /** the zone the server last heard from this browser */
  reported: string | null;
  children: ReactNode;
}) {
  const router = useRouter();
  useEffect(() => {
    const own = reportBrowserTimeZone();
    if (!own || own === reported) return;
    // the page was drawn in another zone (UTC at first): draw it again in this one
    if (followsBrowser && refreshedFor !== own) {
      refreshedFor = own;
      router.refresh();
    }
  }, [reported, followsBrowser, router]);
  return <TimeZoneContext.Provider value={timeZone}>{children}</TimeZoneContext.Provider>;
}

/** "PST": the zone's short name, for a column header or a filter's label. */
export function ZoneLabel({ className }: { className?: string }) {
  const timeZone = useTimeZone();
  if (!timeZone) return null;
  return (
    <span className={className} title={timeZone}>
      {shortZoneName(timeZone)}
    </span>
  );
}

/** A date column's heading with the zone its dates are in: "Date (PST)". */
export function DateHeading({ children = 'Date' }: { children?: ReactNode }) {
  const timeZone = useTimeZone();
  return (
    <>
      {children}
      {timeZone && ' '}
      {timeZone && (
        <span className="font-normal normal-case" title={`Dates in ${timeZone}`}>
          ({shortZoneName(timeZone)})
        </span>
      )}
    </>
  );
}
