import { expect, test, type Page } from '@playwright/test';
import { relativeTime } from '@/lib/dashboard/format';
import { addDays, dayInZone, shortZoneName } from '@/lib/core/time-zone';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import { expectAccessible, PHONE, setPaymentCreatedAt } from './support';

// A merchant in Los Angeles: a payment made at 02:00 UTC happened the evening before for them, and the
// payments list, its day filter and Home's chart all say so, each naming the zone. Choosing another zone
// in Settings moves all three together.

const LOS_ANGELES = 'America/Los_Angeles';
const TOKYO = 'Asia/Tokyo';

test.use({ timezoneId: LOS_ANGELES });

/** "Nov 13" as the chart's table names a YYYY-MM-DD day. */
const chartDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

async function filterByDay(page: Page, zoneName: string, day: string) {
  await page.goto('/dashboard/payments');
  await page.getByLabel(`From (${zoneName})`).fill(day);
  await page.getByLabel(`To (${zoneName})`).fill(day);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(`**/dashboard/payments?*to=${day}*`);
}

/** The chart's per-day figures, as its screen-reader table gives them. */
function chartRow(page: Page, day: string) {
  return page
    .getByRole('table', { name: 'Per day' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: chartDay(day), exact: true }) });
}

test('a merchant in Los Angeles sees a payment made at 02:00 UTC on the evening before, in the list, the filter and the chart', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Pacific Shop'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);

  // ten days ago at 02:00 UTC: old enough to be listed by its date, within Home's 30 days
  const utcDay = addDays(new Date().toISOString().slice(0, 10), -10);
  const paidAt = new Date(`${utcDay}T02:00:00Z`);
  await setPaymentCreatedAt(paid.body.id, paidAt);
  const localDay = dayInZone(paidAt, LOS_ANGELES);
  expect(localDay).toBe(addDays(utcDay, -1));
  const pacific = shortZoneName(LOS_ANGELES);

  // the list: the evening before, the zone in the column heading and in the exact time
  await page.goto('/dashboard/payments');
  const payments = page.getByRole('table', { name: 'Payments' });
  await expect(payments.getByRole('columnheader', { name: `Date (${pacific})` })).toBeVisible();
  const date = payments.getByRole('row').filter({ hasText: 'US$37.50' }).locator('time');
  await expect(date).toHaveText(relativeTime(paidAt, new Date(), LOS_ANGELES));
  await expect(date).toHaveAttribute('title', new RegExp(`, 6:00:00\\sPM ${pacific}$`));
  await screenshotBoth(page, 'payments-time-zone');

  // the day filter takes Los Angeles days
  await filterByDay(page, pacific, localDay);
  await expect(payments.getByRole('row').filter({ hasText: 'US$37.50' })).toHaveCount(1);
  await filterByDay(page, pacific, utcDay);
  await expect(page.getByText('No payments match these filters')).toBeVisible();

  // the chart: the same evening before, its legend naming the zone
  await page.goto('/dashboard');
  await expect(page.getByText(`Days in America/Los Angeles time (${pacific})`)).toBeVisible();
  await expect(chartRow(page, localDay)).toContainText('US$37.50');
  await expect(chartRow(page, utcDay)).not.toContainText('US$37.50');
  await expectAccessible(page);
  await screenshotBoth(page, 'home-time-zone');

  // Settings: the merchant chooses Tokyo, where 02:00 UTC is 11:00 the same day; everything follows
  await page.goto('/dashboard/settings');
  const zonePanel = page.getByRole('region', { name: 'Time zone' });
  const zone = zonePanel.getByLabel('Time zone');
  await expect(zone.locator('option:checked')).toHaveText(`Your browser’s time zone (America/Los Angeles)`);
  await expectAccessible(page);
  await zone.selectOption(TOKYO);
  await zonePanel.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Dates, filters and the chart now use Tokyo (Asia) time.')).toBeVisible();
  await expect(zone).toHaveValue(TOKYO);
  await screenshotBoth(page, 'settings-time-zone');

  const tokyo = shortZoneName(TOKYO);
  expect(dayInZone(paidAt, TOKYO)).toBe(utcDay);
  await filterByDay(page, tokyo, utcDay);
  await expect(payments.getByRole('row').filter({ hasText: 'US$37.50' })).toHaveCount(1);
  await expect(payments.getByRole('columnheader', { name: `Date (${tokyo})` })).toBeVisible();
  await expect(payments.locator('time').first()).toHaveAttribute(
    'title',
    new RegExp(`, 11:00:00\\sAM ${tokyo.replace('+', '\\+')}$`),
  );
  await page.goto('/dashboard');
  await expect(chartRow(page, utcDay)).toContainText('US$37.50');
  await expect(chartRow(page, localDay)).not.toContainText('US$37.50');

  // back to the browser's zone
  await page.goto('/dashboard/settings');
  await zone.selectOption('');
  await zonePanel.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Dates now follow the time zone of the browser you use.')).toBeVisible();
  await page.goto('/dashboard/payments');
  await expect(payments.getByRole('columnheader', { name: `Date (${pacific})` })).toBeVisible();
  await page.setViewportSize(PHONE);
  await expectAccessible(page);
  await page.goto('/dashboard/settings');
  await expectAccessible(page);
});
