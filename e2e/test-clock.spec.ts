import { expect, test } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';

// Test clocks (lib/test-clocks/service.ts) from the dashboard: a merchant advances its test clock on Developers → API keys, and the open
// checkout session it was looking at is expired, in the list, on its page and through the API.

test('a merchant advances the test clock and sees an open session become expired', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Clockwork Cafe'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key, { order_reference: 'order-clock' });

  await page.goto('/dashboard/checkout-sessions');
  const row = page
    .getByRole('table', { name: 'Checkout sessions' })
    .getByRole('row')
    .filter({ hasText: 'order-clock' });
  await expect(row).toContainText('Open');

  await page.goto('/dashboard/developers/api-keys');
  const card = page.getByRole('form', { name: 'Test clock' });
  await expect(card.getByTestId('test-clock-offset')).toHaveText('Not advanced');
  await screenshotBoth(page, 'test-clock');

  // a refused number says why, beside the field
  await card.getByRole('textbox', { name: 'Seconds' }).fill('0');
  await card.getByRole('button', { name: 'Advance' }).click();
  await expect(card.getByText('Enter a whole number of seconds from 1 to 31,536,000 (a year).')).toBeVisible();

  await card.getByRole('button', { name: '+1 hour' }).click();
  await expect(card.getByRole('status')).toHaveText('Clock advanced by 1 hour. It is now 1 hour ahead.');
  await expect(card.getByTestId('test-clock-offset')).toHaveText('1 hour');
  await card.getByRole('textbox', { name: 'Seconds' }).fill('90');
  await card.getByRole('button', { name: 'Advance' }).click();
  await expect(card.getByTestId('test-clock-offset')).toHaveText('1 hour 1 minute 30 seconds');
  await screenshotBoth(page, 'test-clock-advanced');

  await page.goto('/dashboard/checkout-sessions');
  await expect(row).toContainText('Expired');
  await row.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expired');
  expect((await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`)).body.status).toBe('expired');
  expect((await v1(key, 'GET', '/v1/test-helpers/clock')).body.offset_seconds).toBe(3_690);
});
