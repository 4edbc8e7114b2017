import type { Metadata } from 'next';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { TestClockCard } from '@/components/dashboard/test-clock-card';
import { requireMerchant } from '@/lib/auth/session';
import { describeSeconds } from '@/lib/test-clocks/dashboard-actions';
import { getTestClock } from '@/lib/test-clocks/service';
import { advanceTestClockAction, previewAdvanceAction } from './actions';

export const metadata: Metadata = { title: 'Test clock' };

export default async function TestClockPage() {
  const { context } = await requireMerchant();
  const clock = await getTestClock(context);
  return (
    <>
      <PageHeader
        title="Test clock"
        description="Your integration tests should never sleep: move this account’s time forward instead, as GET and POST /v1/test-helpers/clock do."
      />
      <Panel
        title="This account’s time"
        description="Open checkout sessions expire 30 minutes after they were made, processing refunds finish and webhook retries come due as this clock passes their time. Every date in the dashboard is shown against it."
        flush
      >
        <TestClockCard
          now={clock.now.toISOString()}
          offsetLabel={describeSeconds(clock.offsetSeconds)}
          advanced={clock.offsetSeconds > 0}
          preview={previewAdvanceAction}
          advance={advanceTestClockAction}
        />
      </Panel>
    </>
  );
}
