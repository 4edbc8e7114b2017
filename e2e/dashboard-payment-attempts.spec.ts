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
import { expectAccessible } from './support';

// A customer whose first cards were declined is one payment in the list, "3 attempts", not three rows; the
// tries are on its page, and Home says its failed figure counts each try.

test('a checkout paid on the third card is one row with "3 attempts", its tries on its page', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Attempts'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  for (const card of ['4000000000000002', '4000000000000002', '4242424242424242']) {
    const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: card,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  }
  // the API is unchanged: every attempt is a payment
  const listed = await v1(key, 'GET', `/v1/payments?order_reference=${session.order_reference}`);
  expect(listed.body.data).toHaveLength(3);

  await page.goto('/dashboard/payments');
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Succeeded');
  await expect(table.getByRole('row').nth(1)).toContainText('3 attempts');
  await screenshotBoth(page, 'payments-attempts');
  await expectAccessible(page);

  await table.getByRole('link', { name: 'US$37.50' }).click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByRole('link', { name: /^pay_/ })).toHaveCount(2);

  await page.goto('/dashboard');
  await expect(page.getByText('2 failed attempts, each try counted')).toBeVisible();
});
