import { countApiKeys } from '@/lib/api-keys/repository';
import type { RequestContext } from '@/lib/core/context';
import { hasSessions } from '@/lib/checkout-sessions/repository';
import { findRecentEvents } from '@/lib/events/repository';
import type { Currency } from '@/lib/generated/prisma/client';
import { countApprovedWebsites } from '@/lib/merchants/repository';
import { findDailyFigures } from '@/lib/payments/repository';
import { addDays, dayInZone, UTC, zonedDayStart } from '@/lib/core/time-zone';
import { countLiveEndpoints } from '@/lib/webhooks/repository';

// Home's figures: the last 30 days of one currency, a row per day in the dashboard's time zone (the same
// days as the payments list's filters), in one SQL statement. Amounts in two currencies are never added
// together; the page shows one currency at a time.

export const OVERVIEW_DAYS = 30;

export type DayFigures = {
  /** YYYY-MM-DD, in the zone the overview was asked for */
  day: string;
  currency: Currency;
  grossVolume: number;
  succeededCount: number;
  failedCount: number;
  /** refunds requested that day and completed since: money given back */
  refundedAmount: number;
  refundCount: number;
};

export type Overview = {
  currency: Currency;
  /** currencies with any payment in the window, busiest first */
  currencies: Currency[];
  days: DayFigures[];
  totals: {
    grossVolume: number;
    succeededCount: number;
    failedCount: number;
    refundedAmount: number;
    refundCount: number;
    refundRate: number | null;
  };
};

export async function getOverview(
  context: RequestContext,
  options: { currency?: Currency; today?: Date; timeZone?: string } = {},
): Promise<Overview> {
  const { db: database, merchantId } = context;
  const timeZone = options.timeZone ?? UTC;
  const today = dayInZone(options.today ?? new Date(), timeZone);
  const firstDay = addDays(today, -(OVERVIEW_DAYS - 1));
  // the window starts when its first day does in that zone; each row is bucketed by its local day
  const from = zonedDayStart(firstDay, timeZone);
  const rows = await findDailyFigures(database, merchantId, { firstDay, lastDay: today, from, timeZone });

  const all: DayFigures[] = rows.map((row) => ({
    day: row.day.toISOString().slice(0, 10),
    currency: row.currency,
    grossVolume: Number(row.gross),
    succeededCount: Number(row.succeeded),
    failedCount: Number(row.failed),
    refundedAmount: Number(row.refunded),
    refundCount: Number(row.refunds),
  }));

  const activity = new Map<Currency, number>();
  for (const row of all) {
    activity.set(
      row.currency,
      (activity.get(row.currency) ?? 0) + row.grossVolume + row.succeededCount + row.failedCount + row.refundCount,
    );
  }
  const currencies = [...activity.entries()]
    .filter(([, weight]) => weight > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([currency]) => currency);
  const currency = options.currency ?? currencies[0] ?? 'USD';
  const days = all.filter((row) => row.currency === currency);
  const sum = (pick: (row: DayFigures) => number) => days.reduce((total, row) => total + pick(row), 0);
  const grossVolume = sum((row) => row.grossVolume);
  const refundedAmount = sum((row) => row.refundedAmount);
  return {
    currency,
    currencies,
    days,
    totals: {
      grossVolume,
      succeededCount: sum((row) => row.succeededCount),
      failedCount: sum((row) => row.failedCount),
      refundedAmount,
      refundCount: sum((row) => row.refundCount),
      refundRate: grossVolume > 0 ? refundedAmount / grossVolume : null,
    },
  };
}

/** The newest events, for Home's "Recent activity". */
export async function listRecentActivity(context: RequestContext, limit = 8) {
  const { db: database, merchantId } = context;
  return findRecentEvents(database, merchantId, limit);
}

/** What a new account has done so far, for Home's getting-started checklist. */
export async function getSetupProgress(context: RequestContext) {
  const { db: database, merchantId } = context;
  const [websites, keys, hasSession, endpoints] = await Promise.all([
    countApprovedWebsites(database, merchantId),
    countApiKeys(database, merchantId),
    hasSessions(database, merchantId),
    countLiveEndpoints(database, merchantId),
  ]);
  return { hasWebsite: websites > 0, hasKey: keys > 0, hasSession, hasEndpoint: endpoints > 0 };
}
