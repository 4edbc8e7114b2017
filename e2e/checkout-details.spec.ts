import { expect, test } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import { createSession, DESKTOP, PHONE, screenshot, SHOP, shopRoutes, usdSession } from './support';
import { approveWebsite, createKey, newMerchant, payByCard, signUp, v1 } from './dashboard-support';

// The details of the hosted checkout that a customer reads: what a payment link's
// checkout shows, how a USDC amount is written, what the success screen leaves out, and the words of a
// refused expiry month and of a refund of nothing.

test('a payment link’s checkout shows the link’s description and no shipping or tax rows', async ({ page }) => {
  const description = 'A hand-printed poster, A2, shipped rolled in a tube.';
  const link = (
    await v1<{ url: string }>(E2E_API_KEY, 'POST', '/v1/payment-links', {
      name: 'Poster',
      description,
      amount: 4200,
      currency: 'USD',
    })
  ).body;
  await page.goto(link.url);
  await page.getByRole('button', { name: 'Pay US$42.00' }).click();
  await page.waitForURL(/\/checkout\/cs_/);

  const order = page.locator('#order-summary');
  await expect(order.getByText('Poster', { exact: true })).toBeVisible();
  await expect(order.getByText(description)).toBeVisible();
  await expect(order.getByText('Total')).toBeVisible();
  for (const row of ['Subtotal', 'Shipping', 'Tax', 'Free'])
    await expect(order.getByText(row, { exact: true })).toHaveCount(0);
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    if (size === 'phone') await page.getByRole('button', { name: /Show order summary/ }).click();
    await screenshot(page, `checkout-link-summary-${size}`);
  }

  // a merchant's own session still itemises its shipping and tax
  const session = await createSession(usdSession());
  await page.setViewportSize(DESKTOP);
  await page.goto(session.url);
  await expect(page.locator('#order-summary').getByText('Shipping', { exact: true })).toBeVisible();
  await expect(page.locator('#order-summary').getByText('US$5.00', { exact: true })).toBeVisible();
});

test('after paying, the success screen shows no countdown', async ({ page }) => {
  await shopRoutes(page);
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await expect(page.getByRole('timer')).toContainText('Expires in');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  // hold the return to the shop, so the success screen can be looked at before it leaves
  let releaseReturn: () => void = () => {};
  const returned = new Promise<void>((resolve) => (releaseReturn = resolve));
  await page.route(`${SHOP}/**`, async (route) => {
    await returned;
    await route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Demo Shop</title><h1>Back at Demo Shop</h1>',
    });
  });
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(page.getByRole('status').getByText('Payment received')).toBeVisible();
  await expect(page.getByRole('timer')).toHaveCount(0);
  await expect(page.getByText(/Expires in/)).toHaveCount(0);
  releaseReturn();
  await page.waitForURL(`${SHOP}/**`);
});

test('an expiry month of 13 is called an invalid month, not a wrong format', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('13 / 30');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  const expiry = page.getByLabel('Expiry (MM / YY)');
  await expect(expiry).toHaveAccessibleDescription(/expiry month is invalid/);
  await expect(expiry).toBeFocused();
  await screenshot(page, 'checkout-expiry-month-invalid');
});

test('a refund of 0 in the dashboard says the amount must be positive, and keeps the form', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Zero Refund'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = (
    await v1<{ id: string; url: string }>(key, 'POST', '/v1/checkout-sessions', {
      ...usdSession(),
      return_url: `${SHOP}/thanks`,
      cancel_url: `${SHOP}/cart`,
    })
  ).body;
  await payByCard(page, session.url);
  const paymentId = (await v1<{ payment_id: string }>(key, 'GET', `/v1/checkout-sessions/${session.id}`)).body
    .payment_id;

  await page.goto(`/dashboard/payments/${paymentId}`);
  const amount = page.getByLabel('Amount', { exact: false }).first();
  await amount.fill('0');
  await page
    .getByRole('button', { name: /^Refund/ })
    .first()
    .click();
  await expect(page.getByText('The amount must be positive')).toBeVisible();
  await expect(amount).toHaveValue('0');
  expect((await v1<{ data: unknown[] }>(key, 'GET', `/v1/refund-requests?payment_id=${paymentId}`)).body.data).toEqual(
    [],
  );
});
