import { ApiError } from '@/lib/api/errors';
import { parse } from '@/lib/api/parse';
import type { Db } from '@/lib/db';
import { advanceTestClockInput, MAX_ADVANCE_SECONDS } from '@/lib/test-clocks/schemas';
import { advanceTestClock } from '@/lib/test-clocks/service';
import { failed, refused, type FormState } from './form-state';

// Developers → API keys, "Test clock": the connection's clock, advanced through the same service as
// POST /v1/test-helpers/clock/advance.

export type TestClockField = 'seconds';

/** Advances by the form's `seconds` (a whole number, 1 to a year); the answer says how far the clock is now. */
export async function advanceTestClockFromDashboard(
  database: Db,
  merchantId: string,
  secondsText: string,
): Promise<FormState<TestClockField>> {
  const seconds = /^\d+$/.test(secondsText.trim()) ? Number(secondsText.trim()) : Number.NaN;
  try {
    const { seconds: checked } = parse(advanceTestClockInput, { seconds });
    const clock = await advanceTestClock(database, merchantId, checked);
    return {
      status: 'ok',
      message: `Clock advanced by ${describeSeconds(checked)}. It is now ${describeSeconds(clock.offsetSeconds)} ahead.`,
    };
  } catch (error) {
    if (error instanceof ApiError && error.param === 'seconds') {
      return refused(
        {
          seconds:
            error.userMessage ??
            `Enter a whole number of seconds from 1 to ${MAX_ADVANCE_SECONDS.toLocaleString('en-US')} (a year).`,
        },
        { seconds: secondsText },
      );
    }
    if (error instanceof ApiError && error.status < 500) return failed(error.message);
    throw error;
  }
}

/** 90061 → "1 day 1 hour 1 minute 1 second"; 0 → "0 seconds". */
export function describeSeconds(total: number): string {
  const parts: string[] = [];
  let rest = total;
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0 seconds';
}
