import { expect, test } from '@playwright/test';
import {
  approveWebsiteInSettings,
  createKeyInDialog,
  createSessionWith,
  newMerchant,
  payByCard,
  screenshotBoth,
  shopSession,
  signUpThroughForm,
  v1,
} from './dashboard-support';

// A merchant's first hour: sign up, approve the shop's website, make a key, take a payment through the
// hosted page, find it in the dashboard, and refund part of it.

test('a new merchant goes from sign-up to a refunded payment', async ({ page }) => {
  const merchant = newMerchant('Maple Goods');
  await signUpThroughForm(page, merchant);

  // a new account's Home says what to do first
  await expect(page.getByRole('complementary').getByText(merchant.businessName, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await expect(page.getByText('No payments yet')).toBeVisible();
  await screenshotBoth(page, 'home-new-account');

  // a session cannot return to a website that is not approved yet
  const key = await createKeyInDialog(page);
  await screenshotBoth(page, 'api-keys');
  const refused = await v1(key, 'POST', '/v1/checkout-sessions', shopSession());
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('url_not_approved');

  // Settings: a typo is refused with the rule, the real host is approved
  await page.goto('/dashboard/settings');
  await page.getByRole('textbox', { name: 'Host' }).fill('localhost:4000/cart');
  await page.getByRole('button', { name: 'Add website' }).click();
  await expect(
    page.getByText('Enter a host like shop.example.com or localhost:4000 — no path, no wildcard.'),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Host' })).toHaveValue('localhost:4000/cart');
  await approveWebsiteInSettings(page, 'localhost:4000');
  await screenshotBoth(page, 'settings');

  // the merchant's server creates a session with the key, and the customer pays it
  const session = await createSessionWith(key);
  await payByCard(page, session.url);

  await page.goto('/dashboard/payments');
  const row = page.getByRole('row').filter({ hasText: session.order_reference });
  await expect(row).toContainText('US$37.50');
  await expect(row).toContainText('Succeeded');
  await expect(row).toContainText('Visa •••• 4242');
  await screenshotBoth(page, 'payments');
  await row.getByRole('link', { name: 'US$37.50' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toContainText('US$37.50');
  await expect(page.getByText('Checkout session created')).toBeVisible();
  await expect(page.getByText('Payment succeeded')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Event payment.succeeded' })).toBeVisible();

  // the amount starts at what is left; more than that is refused beside the field, and what was typed stays
  const amount = page.getByLabel('Amount (USD)');
  await expect(amount).toHaveValue('37.50');
  await expect(amount).toHaveAccessibleDescription('Reads as US$37.50.');
  await amount.fill('40.00');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(amount).toHaveAccessibleDescription('Only US$37.50 is left to refund on this payment.');
  await expect(amount).toHaveValue('40.00');

  await amount.fill('10.00');
  await page.getByLabel('Reason (optional)').fill('One shirt arrived torn');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$10.00?' }).getByRole('button', { name: 'Refund US$10.00' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$10.00 requested.' })).toBeVisible();

  // the sandbox provider completes it; the page shows it once reloaded
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('list', { name: 'Refund requests' }).getByText('Completed')).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText('Refund of US$10.00 completed')).toBeVisible();
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('27.50');
  await screenshotBoth(page, 'payment-refunded');

  // Home adds it up
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible(); // webhooks are still to do
  const figures = page.getByRole('definition');
  await expect(figures.filter({ hasText: 'US$37.50' }).first()).toBeVisible();
  await expect(figures.filter({ hasText: 'US$10.00' }).first()).toBeVisible();
  await expect(page.getByText('Refund of US$10.00 completed')).toBeVisible();
  await screenshotBoth(page, 'home');
});
