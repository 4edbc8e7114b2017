import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from '../playwright.config';
import { newMerchant, screenshotBoth, signUp } from './dashboard-support';
import { DESKTOP, expectAccessible, PHONE, screenshot, shopRoutes } from './support';

// A payment link made as people type prices ("45,50"), with the account's methods ticked when choosing them,
// a quantity the customer picks on its page, and its sales named after it in Payments.

test('a merchant types "45,50", lets customers choose how many, and finds the sale by the link’s name', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Quantity'));
  await page.goto('/dashboard/payment-links/new');
  await page.getByLabel('Name').fill('Yoga pass');
  await page.getByLabel('Currency').selectOption('CAD');

  // choosing methods starts from what the account takes, so saving right away works
  await page.getByLabel('Only the methods I choose').check();
  await expect(page.getByRole('checkbox', { name: 'Card' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Interac/ })).toBeChecked();

  const price = page.getByLabel('Price');
  await price.fill('1,500');
  await expect(price).toHaveAccessibleDescription(/could be 1500 or 1\.500/);
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(price).toHaveAccessibleDescription(/could be 1500 or 1\.500/);
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await price.fill('45,50');
  await expect(price).toHaveAccessibleDescription('Reads as CA$45.50.');

  await page.getByLabel('Let customers choose the quantity').check();
  await page.getByLabel('Most').fill('5');
  await screenshotBoth(page, 'payment-link-new-quantity');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.waitForURL(/\/dashboard\/payment-links\/pl_[0-9A-Za-z]{24}$/);
  await expect(page.getByText('CA$45.50').first()).toBeVisible();
  const linkId = page.url().split('/').pop()!;

  // the customer chooses three, and pays three times the price
  const customer = await (await browser.newContext({ viewport: PHONE })).newPage();
  await shopRoutes(customer);
  await customer.goto(`${E2E_BASE_URL}/pay/${linkId}`);
  const quantity = customer.getByLabel('Quantity');
  await expect(quantity).toHaveValue('1');
  await quantity.fill('9');
  await expect(quantity).toHaveAccessibleDescription('Choose from 1 to 5.');
  await expect(customer.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await quantity.fill('3');
  await screenshot(customer, 'payment-link-quantity-phone');
  await customer.setViewportSize(DESKTOP);
  await screenshot(customer, 'payment-link-quantity-desktop');
  await expectAccessible(customer);
  await customer.getByRole('button', { name: 'Pay CA$136.50' }).click();
  await customer.waitForURL(/\/checkout\/cs_[0-9A-Za-z]{24}$/);
  await expect(customer.getByText('Qty 3 · CA$45.50 each')).toBeVisible();
  await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await customer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByLabel('Name on card').fill('Ada Lovelace');
  await customer.getByRole('button', { name: 'Pay CA$136.50' }).click();
  await customer.waitForURL(new RegExp(`/pay/${linkId}/receipt\\?session_id=cs_`));

  // in Payments the sale is "Yoga pass #1", not the link's id
  await page.goto('/dashboard/payments');
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByText('Yoga pass #1')).toBeVisible();
  await expect(table.getByText(`${linkId}-1`)).toHaveCount(0);
  await screenshotBoth(page, 'payments-link-sale');
  await table.getByRole('link', { name: 'CA$136.50' }).click();
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('Yoga pass #1');
});
