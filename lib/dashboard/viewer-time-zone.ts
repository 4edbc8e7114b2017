import { cookies } from 'next/headers';
import { cache } from 'react';
import { requireMerchant } from '@/lib/auth/session';
import { browserTimeZone, TIME_ZONE_COOKIE, UTC } from '@/lib/core/time-zone';

// Which zone the dashboard shows this request in. The merchant's choice in Settings wins; without one,
// the zone the browser reported in a cookie (components/dashboard/time-zone.tsx sets it and refreshes
// once), so server-rendered dates, day filters and the chart agree with the reader's clock. Before the
// browser has said, UTC, labelled as such.

export type ViewerTimeZone = {
  timeZone: string;
  /** settings: chosen by the merchant; browser: the reader's own; unknown: UTC until the browser says */
  source: 'settings' | 'browser' | 'unknown';
  /** what the browser last reported, for the cookie setter to compare against */
  reported: string | null;
};

export const getViewerTimeZone = cache(async (): Promise<ViewerTimeZone> => {
  const { merchantTimeZone } = await requireMerchant();
  const reported = browserTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value);
  if (merchantTimeZone) return { timeZone: merchantTimeZone, source: 'settings', reported };
  return reported
    ? { timeZone: reported, source: 'browser', reported }
    : { timeZone: UTC, source: 'unknown', reported };
});
