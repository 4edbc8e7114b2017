import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SandboxClockProvider, SandboxTimeBanner } from '@/components/dashboard/sandbox-clock';
import { Sidebar } from '@/components/dashboard/sidebar';
import { TimeZoneProvider } from '@/components/dashboard/time-zone';
import { requireMerchant } from '@/lib/auth/session';
import { countRefundsAwaitingApproval } from '@/lib/refunds/dashboard';
import { getViewerTimeZone } from '@/lib/dashboard/viewer-time-zone';
import { getTestClock } from '@/lib/test-clocks/service';

export const metadata: Metadata = { title: { default: 'Dashboard', template: '%s · Dashboard · Sandbox Payments' } };

// Every page under /dashboard renders inside this frame, and only for a signed-in user. The pages and
// actions check again themselves: a layout is not a security boundary for requests that skip it.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { merchantName, email, context } = await requireMerchant();
  const [{ timeZone, source, reported }, clock, refundsWaiting] = await Promise.all([
    getViewerTimeZone(),
    getTestClock(context),
    countRefundsAwaitingApproval(context),
  ]);
  return (
    <TimeZoneProvider timeZone={timeZone} followsBrowser={source !== 'settings'} reported={reported}>
      {/* every time on every page is measured against the account's clock, which its test clock moves */}
      <SandboxClockProvider offsetSeconds={clock.offsetSeconds}>
        <div className="lg:flex">
          <Sidebar merchantName={merchantName} email={email} refundsWaiting={refundsWaiting} />
          <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
            <div className="mx-auto max-w-6xl">
              <SandboxTimeBanner offsetSeconds={clock.offsetSeconds} now={clock.now.toISOString()} />
              {children}
            </div>
          </main>
        </div>
      </SandboxClockProvider>
    </TimeZoneProvider>
  );
}
