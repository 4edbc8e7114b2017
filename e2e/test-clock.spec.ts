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

// Test clocks (lib/test-clocks/service.ts) from the dashboard: a merchant advances its test clock on Developers → Test clock, and the open
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

  await page.goto('/dashboard/developers/test-clock');
  const card = page.getByRole('form', { name: 'Advance the test clock' });
  await expect(page.getByTestId('test-clock-offset')).toHaveText('Not advanced');
  await screenshotBoth(page, 'test-clock');

  // a refused amount says why, beside the field
  await card.getByRole('textbox', { name: 'Amount' }).fill('0');
  await card.getByRole('button', { name: 'Advance…' }).click();
  await expect(card.getByText('Enter a whole number: from 1 minute up to 365 days at a time.')).toBeVisible();

  await card.getByRole('button', { name: '+1 hour' }).click();
  await page
    .getByRole('dialog', { name: 'Advance the clock by 1 hour?' })
    .getByRole('button', { name: 'Advance 1 hour' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Clock advanced' })).toHaveText(
    'Clock advanced by 1 hour. It is now 1 hour ahead.',
  );
  await expect(page.getByTestId('test-clock-offset')).toHaveText('1 hour');
  await card.getByRole('textbox', { name: 'Amount' }).fill('2');
  await card.getByRole('button', { name: 'Advance…' }).click();
  await page
    .getByRole('dialog', { name: 'Advance the clock by 2 minutes?' })
    .getByRole('button', { name: 'Advance 2 minutes' })
    .click();
  await expect(page.getByTestId('test-clock-offset')).toHaveText('1 hour 2 minutes');
  await screenshotBoth(page, 'test-clock-advanced');

  await page.goto('/dashboard/checkout-sessions');
  await expect(row).toContainText('Expired');
  await row.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expired');
  expect((await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`)).body.status).toBe('expired');
  expect((await v1(key, 'GET', '/v1/test-helpers/clock')).body.offset_seconds).toBe(3_720);
});
