import { expect, test, type Browser, type Page } from '@playwright/test';
import { E2E_BASE_URL } from '../playwright.config';
import { newMerchant, screenshotBoth, signUp } from './dashboard-support';
import { DESKTOP, expectAccessible, PHONE, screenshot, shopRoutes } from './support';

// A merchant raises a link's price and lets customers choose how many, after the link was shared: a customer
// already at the checkout pays the old price, one who had the link's page open is shown the new price before
// paying it, and both payments show under the link.

async function customerAt(browser: Browser, url: string): Promise<Page> {
  const customer = await (await browser.newContext({ viewport: PHONE })).newPage();
  await shopRoutes(customer);
  await customer.goto(url);
  return customer;
}

async function payByCard(customer: Page, priceLabel: string) {
  await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await customer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByLabel('Name on card').fill('Ada Lovelace');
  await customer.getByRole('button', { name: `Pay ${priceLabel}` }).click();
}

test('a merchant changes a shared link’s price and quantities; the customer already paying keeps the old price, the next one pays the new', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signUp(page, newMerchant('Reprice'));
  await page.goto('/dashboard/payment-links/new');
  await page.getByLabel('Name').fill('Pottery class');
  await page.getByLabel('Currency').selectOption('CAD');
  await page.getByLabel('Price').fill('25');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.waitForURL(/\/dashboard\/payment-links\/pl_[0-9A-Za-z]{24}$/);
  const linkUrl = `${E2E_BASE_URL}/pay/${page.url().split('/').pop()}`;

  // one customer is at the checkout already; another has the link's page open
  const early = await customerAt(browser, linkUrl);
  await early.getByRole('button', { name: 'Pay CA$25.00' }).click();
  await early.waitForURL(/\/checkout\/cs_[0-9A-Za-z]{24}$/);
  const late = await customerAt(browser, linkUrl);
  await expect(late.getByText('CA$25.00', { exact: true })).toBeVisible();

  // from the link's price to its edit form: the new price is typed as the merchant writes it, and read back
  await page.getByRole('link', { name: 'Change the price or quantity' }).click();
  const edit = page.getByRole('region', { name: 'Edit' });
  const price = edit.getByLabel('Price (CAD)');
  await expect(price).toHaveValue('25.00');
  await price.fill('1,500');
  await expect(price).toHaveAccessibleDescription(/could be 1500 or 1\.500/);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await price.fill('30,00');
  await expect(price).toHaveAccessibleDescription('Reads as CA$30.00.');
  await edit.getByLabel('Let customers choose the quantity').check();
  await edit.getByLabel('Most').fill('4');
  await edit.scrollIntoViewIfNeeded();
  await screenshotBoth(page, 'payment-link-edit');
  await expectAccessible(page);

  // saving a new price asks first, naming both prices and what happens to checkouts already started
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const confirm = page.getByRole('dialog', { name: 'Change the price to CA$30.00?' });
  await expect(confirm).toContainText(
    'Customers who open the link from now on pay CA$30.00 instead of CA$25.00. Checkouts already started keep CA$25.00.',
  );
  await screenshotBoth(page, 'payment-link-edit-confirm');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Change price to CA$30.00' }).click();
  await expect(confirm).toBeHidden();
  await expect(edit.getByRole('status')).toHaveText(
    'Saved. Customers who open the link from now on pay CA$30.00; checkouts already started keep CA$25.00.',
  );
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('CA$30.00');
  await expect(details).toContainText('Customers choose 1 to 4');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotBoth(page, 'payment-link-edited');

  // the customer already at the checkout pays the price it was opened with
  await expect(early.getByRole('button', { name: 'Pay CA$25.00' })).toBeVisible();
  await payByCard(early, 'CA$25.00');
  await early.waitForURL(/\/receipt\?session_id=cs_/);
  await expect(early.getByRole('definition').filter({ hasText: 'CA$25.00' })).toBeVisible();

  // the one whose page still says CA$25.00 is not charged unawares: the page shows the new price and range
  await late.getByRole('button', { name: 'Pay CA$25.00' }).click();
  await expect(late.getByRole('alert').filter({ hasText: 'price changed' })).toHaveText(
    'The price changed while this page was open, and the page now shows the new one. Nothing was charged: check it, then pay again.',
  );
  await expect(late.getByText('CA$30.00', { exact: true })).toBeVisible();
  expect(late.url()).toBe(linkUrl);
  await late.getByLabel('Quantity').fill('2');
  await screenshot(late, 'payment-link-price-changed-phone');
  await late.setViewportSize(DESKTOP);
  await screenshot(late, 'payment-link-price-changed-desktop');
  await expectAccessible(late);
  await late.getByRole('button', { name: 'Pay CA$60.00' }).click();
  await late.waitForURL(/\/checkout\/cs_[0-9A-Za-z]{24}$/);
  await expect(late.getByText('Qty 2 · CA$30.00 each')).toBeVisible();
  await payByCard(late, 'CA$60.00');
  await late.waitForURL(/\/receipt\?session_id=cs_/);
  await expect(late.getByRole('definition').filter({ hasText: 'CA$60.00' })).toBeVisible();

  // both sales show under the link, each at what was paid
  await page.reload();
  const payments = page.getByRole('table', { name: 'Payments through this link' });
  await expect(payments.getByRole('link', { name: 'CA$25.00' })).toBeVisible();
  await expect(payments.getByRole('link', { name: 'CA$60.00' })).toBeVisible();
  await early.context().close();
  await late.context().close();
});
