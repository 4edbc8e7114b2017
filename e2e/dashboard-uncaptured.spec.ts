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

// Authorizations (manual capture) in the dashboard as it reads them: an uncaptured payment and a canceled one
// each show their status in the list and on their page, which says why there is nothing to refund.

test('an uncaptured and a canceled payment read as such in the list and on their pages', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Uncaptured'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const authorize = async () => {
    const session = await createSessionWith(key, { capture_method: 'manual' });
    const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('requires_capture');
    return paid.body.id as string;
  };
  const uncaptured = await authorize();
  const canceled = await authorize();
  expect((await v1(key, 'POST', `/v1/payments/${canceled}/cancel`)).status).toBe(200);

  await page.goto('/dashboard/payments');
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('Canceled');
  await expect(table.getByRole('row').nth(2)).toContainText('Uncaptured');
  await screenshotBoth(page, 'payments-uncaptured');
  await expectAccessible(page);

  await page.goto(`/dashboard/payments/${uncaptured}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Uncaptured');
  await expect(page.getByText('authorized but not captured yet')).toBeVisible();
  await expect(page.getByText('Payment authorized, not yet captured')).toBeVisible();
  await screenshotBoth(page, 'payment-uncaptured');
  await expectAccessible(page);
});
