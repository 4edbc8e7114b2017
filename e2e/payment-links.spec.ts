import { expect, test, type Browser, type Page } from '@playwright/test';
import { E2E_API_KEY, E2E_BASE_URL } from '../playwright.config';
import { newMerchant, openNav, screenshotBoth, signUp } from './dashboard-support';
import { DESKTOP, expectAccessible, MERCHANT_NAME, PHONE, screenshot, SHOP, shopRoutes } from './support';

// Stories of payment links (/docs#objects): a merchant with no code makes a link in the dashboard and shares
// it; customers pay through it on the hosted checkout; the merchant sees each payment under the link.

/** The public pages at phone and desktop sizes, checked for accessibility: payment-link-<name>-*.png. */
async function capturePublic(page: Page, name: string) {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenshot(page, `payment-link-${name}-${size}`);
  }
  await expectAccessible(page);
}

async function customerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await shopRoutes(page);
  return page;
}

async function payByCard(customer: Page, priceLabel: string) {
  await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await customer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByLabel('Name on card').fill('Ada Lovelace');
  await customer.getByRole('button', { name: `Pay ${priceLabel}` }).click();
}

test('a merchant makes a link, a customer pays it by card and gets a receipt, the payment shows under the link; once deactivated it cannot be paid', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const merchant = newMerchant('Studio');
  await signUp(page, merchant);

  // the merchant finds Payment links in the sidebar and starts with an empty list
  await openNav(page, 'Payment links');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment links' })).toBeVisible();
  await expect(page.getByText('No payment links yet')).toBeVisible();
  await screenshotBoth(page, 'payment-links-empty');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'New payment link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New payment link' })).toBeVisible();
  await page.getByLabel('Name').fill('Yoga class – drop-in');
  await page.getByLabel('Description (optional)').fill('Sixty minutes of vinyasa. Mats provided.');
  await page.getByLabel('Currency').selectOption('CAD');
  // a price the server refuses keeps what was typed and says why beside the field
  await page.getByLabel('Price').fill('twenty');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByText('Enter a price like 25.00')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Yoga class – drop-in');
  await expect(page.getByLabel('Currency')).toHaveValue('CAD');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotBoth(page, 'payment-links-new-error');
  await expectAccessible(page);
  await page.getByLabel('Price').fill('25');
  await expect(page.getByText('Now: Card, Interac e-Transfer.')).toBeVisible();
  await page.getByRole('button', { name: 'Create payment link' }).click();

  // the link's page: its address to copy, its QR code, no payments yet
  await page.waitForURL(/\/dashboard\/payment-links\/pl_[0-9A-Za-z]{24}$/);
  const linkId = page.url().split('/').pop()!;
  const linkUrl = `${E2E_BASE_URL}/pay/${linkId}`;
  await expect(page.getByRole('heading', { level: 1, name: /Yoga class – drop-in/ })).toBeVisible();
  await expect(page.getByTestId('payment-link-url')).toHaveText(linkUrl);
  await expect(page.getByRole('img', { name: `QR code of ${linkUrl}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(page.getByText('No payments yet')).toBeVisible();
  await screenshotBoth(page, 'payment-link-detail-new');
  await expectAccessible(page);

  // a customer opens the shared link on their phone and pays by card
  const customer = await customerPage(browser);
  await customer.goto(linkUrl);
  await expect(customer).toHaveTitle(`Yoga class – drop-in – ${merchant.businessName} · Sandbox Payments`);
  await expect(customer.getByText(merchant.businessName)).toBeVisible();
  await expect(customer.getByRole('heading', { level: 1, name: 'Yoga class – drop-in' })).toBeVisible();
  await expect(customer.getByText('Sixty minutes of vinyasa. Mats provided.')).toBeVisible();
  await expect(customer.getByText('CA$25.00', { exact: true })).toBeVisible();
  await expect(customer.getByRole('list', { name: 'Ways to pay' }).getByRole('listitem')).toHaveText([
    'Card',
    'Interac',
  ]);
  await capturePublic(customer, 'active');
  await customer.setViewportSize(PHONE);

  await customer.getByRole('button', { name: 'Pay CA$25.00' }).click();
  await customer.waitForURL(/\/checkout\/cs_[0-9A-Za-z]{24}$/);
  await expect(customer.getByRole('heading', { level: 1, name: `Pay ${merchant.businessName}` })).toBeVisible();
  await payByCard(customer, 'CA$25.00');
  await customer.waitForURL(new RegExp(`/pay/${linkId}/receipt\\?session_id=cs_`));

  await expect(customer.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
  const receipt = customer.getByRole('definition');
  await expect(receipt.filter({ hasText: 'CA$25.00' })).toBeVisible();
  await expect(receipt.filter({ hasText: 'Visa •••• 4242' })).toBeVisible();
  const paymentId = (await receipt.filter({ hasText: /^pay_/ }).textContent())!.trim();
  expect(paymentId).toMatch(/^pay_[0-9A-Za-z]{24}$/);
  await expect(customer.getByText('You can close this page.')).toBeVisible();
  await capturePublic(customer, 'receipt');

  // the merchant sees the payment under the link, and its sales in the list
  await page.reload();
  const payments = page.getByRole('table', { name: 'Payments through this link' });
  await expect(payments.getByRole('row')).toHaveCount(2);
  await expect(payments.getByRole('link', { name: 'CA$25.00' })).toBeVisible();
  await expect(payments.getByText('Succeeded')).toBeVisible();
  await expect(payments.getByText('Visa •••• 4242')).toBeVisible();
  await expect(page.getByText('Checkouts started')).toBeVisible();
  await screenshotBoth(page, 'payment-link-detail-paid');
  await payments.getByRole('link', { name: 'CA$25.00' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${paymentId}$`));
  await expect(page.getByText(`${linkId}-1`, { exact: true })).toBeVisible();

  await openNav(page, 'Payment links');
  const row = page
    .getByRole('table', { name: 'Payment links' })
    .getByRole('row')
    .filter({ hasText: 'Yoga class – drop-in' });
  await expect(row.getByText('1 payment', { exact: true })).toBeVisible();
  await expect(row.getByText('Active').filter({ visible: true })).toBeVisible();
  await screenshotBoth(page, 'payment-links-list');
  await expectAccessible(page);

  // the merchant rewords the description; customers see it at once
  await row.getByRole('link', { name: 'Yoga class – drop-in' }).click();
  await page.getByLabel('Description (optional)').fill('Sixty minutes of vinyasa. Bring your own mat.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // a second customer has the page open when the merchant deactivates the link
  const late = await customerPage(browser);
  await late.goto(linkUrl);
  await expect(late.getByText('Sixty minutes of vinyasa. Bring your own mat.')).toBeVisible();
  await expect(late.getByRole('button', { name: 'Pay CA$25.00' })).toBeVisible();

  await page.getByRole('button', { name: 'Deactivate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate this payment link?' });
  await dialog.getByRole('button', { name: 'Deactivate link' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 }).getByText('Inactive')).toBeVisible();
  await expect(page.getByText('This link is deactivated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate' })).toBeVisible();
  await screenshotBoth(page, 'payment-link-detail-inactive');

  // their click is refused, and the page now says the link is gone
  await late.getByRole('button', { name: 'Pay CA$25.00' }).click();
  await expect(late.getByRole('alert').filter({ hasText: 'no longer available' })).toHaveText(
    'This payment link is no longer available, so nothing can be paid with it.',
  );
  expect(late.url()).toBe(linkUrl);
  await late.reload();
  await expect(late.getByText('This link is no longer available')).toBeVisible();
  await expect(late.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
  await capturePublic(late, 'inactive');

  // nothing more was sold: still the one payment
  await page.reload();
  await expect(page.getByRole('table', { name: 'Payments through this link' }).getByRole('row')).toHaveCount(2);
  await customer.context().close();
  await late.context().close();
});

test('a link made with the API sends the customer to the merchant’s own page after paying', async ({ browser }) => {
  const created = await fetch(`${E2E_BASE_URL}/v1/payment-links`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${E2E_API_KEY}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
    },
    body: JSON.stringify({
      name: 'Gift card',
      amount: 5000,
      currency: 'USD',
      payment_methods: ['card'],
      after_payment_url: `${SHOP}/gift/thanks?src=link`,
    }),
  });
  expect(created.status).toBe(201);
  const link = (await created.json()) as { id: string; url: string };
  expect(link.url).toBe(`${E2E_BASE_URL}/pay/${link.id}`);

  const customer = await customerPage(browser);
  await customer.goto(link.url);
  await expect(customer.getByText(MERCHANT_NAME)).toBeVisible();
  // an eager double click sends one "Pay", so it starts one checkout
  let pays = 0;
  customer.on('request', (request) => {
    if (request.method() === 'POST' && request.url() === link.url) pays += 1;
  });
  await customer.getByRole('button', { name: 'Pay US$50.00' }).dblclick();
  await customer.waitForURL(/\/checkout\/cs_/);
  expect(pays).toBe(1);
  // "Back" on the checkout leads to the link's page
  await expect(customer.getByRole('link', { name: `Back to ${MERCHANT_NAME}` })).toHaveAttribute('href', link.url);
  await payByCard(customer, 'US$50.00');
  await customer.waitForURL(`${SHOP}/**`);
  const landed = new URL(customer.url());
  expect(landed.pathname).toBe('/gift/thanks');
  expect(landed.searchParams.get('src')).toBe('link');
  const sessionId = landed.searchParams.get('session_id')!;

  const session = await fetch(`${E2E_BASE_URL}/v1/checkout-sessions/${sessionId}`, {
    headers: { Authorization: `Bearer ${E2E_API_KEY}` },
  }).then((r) => r.json());
  expect(session).toMatchObject({
    status: 'complete',
    order_reference: `${link.id}-1`,
    amount: 5000,
    currency: 'USD',
    payment_methods: ['card'],
  });
  const second = await fetch(`${E2E_BASE_URL}/v1/checkout-sessions?order_reference=${link.id}-2`, {
    headers: { Authorization: `Bearer ${E2E_API_KEY}` },
  }).then((r) => r.json());
  expect(second.data).toEqual([]);
  await customer.context().close();
});
