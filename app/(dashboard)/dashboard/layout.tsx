import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Sidebar } from '@/components/dashboard/sidebar';
import { TimeZoneProvider } from '@/components/dashboard/time-zone';
import { requireMerchant } from '@/lib/auth/session';
import { getViewerTimeZone } from '@/lib/dashboard/viewer-time-zone';

export const metadata: Metadata = { title: { default: 'Dashboard', template: '%s · Dashboard · Sandbox Payments' } };

// Every page under /dashboard renders inside this frame, and only for a signed-in user. The pages and
// actions check again themselves: a layout is not a security boundary for requests that skip it.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { merchantName, email } = await requireMerchant();
  const { timeZone, source, reported } = await getViewerTimeZone();
  return (
    <TimeZoneProvider timeZone={timeZone} followsBrowser={source !== 'settings'} reported={reported}>
      <div className="lg:flex">
        <Sidebar merchantName={merchantName} email={email} />
        <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </TimeZoneProvider>
  );
}
