import { expect, test } from '@playwright/test';
import {
  createSession,
  expireSession,
  getSession,
  MERCHANT_NAME,
  paymentPanel,
  payWithTestHelper,
  setExpiresIn,
  SHOP,
  shopRoutes,
  uniqueReference,
  usdSession,
} from './support';

// Stories of the moments a checkout cannot be paid, and of leaving it.

test.beforeEach(async ({ page }) => {
  await shopRoutes(page);
});

test('a customer cancels: the link goes to the cancel_url and the session stays open', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await page.getByRole('link', { name: `Back to ${MERCHANT_NAME}` }).click();
  await page.waitForURL(`${SHOP}/cart`);
  expect((await getSession(session.id)).status).toBe('open');

  // coming back, the customer can still pay
  await page.goto(session.url);
  await expect(page.getByLabel('Card number')).toBeVisible();
});

test('a session without a cancel_url has no cancel link', async ({ page }) => {
  const session = await createSession(usdSession({ cancel_url: undefined }));
  await page.goto(session.url);
  await expect(page.getByRole('heading', { name: `Pay ${MERCHANT_NAME}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Back to ${MERCHANT_NAME}` })).toHaveCount(0);
});

test('an expired session shows a clear page and no form', async ({ page }) => {
  const session = await createSession(usdSession());
  await expireSession(session.id);
  await page.goto(session.url);
  await expect(paymentPanel(page).getByRole('heading', { name: 'This checkout has expired' })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Pay/ })).toHaveCount(0);
  await expect(page.getByRole('timer')).toHaveCount(0);
  await expect(paymentPanel(page).getByRole('link', { name: `Back to ${MERCHANT_NAME}` })).toHaveAttribute(
    'href',
    `${SHOP}/cart`,
  );
});

test('the countdown runs out while the customer watches, and the page says the session expired', async ({ page }) => {
  const session = await createSession(usdSession());
  await setExpiresIn(session.id, 6);
  await page.goto(session.url);
  await expect(page.getByRole('timer')).toHaveText(/Expires in 0:0\d/);
  // under five minutes the time left turns amber
  await expect(page.getByRole('timer')).toHaveClass(/amber/);
  await expect(paymentPanel(page).getByRole('heading', { name: 'This checkout has expired' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  expect((await getSession(session.id)).status).toBe('expired');
});

test('a session that runs out while the customer is paying is not paid', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await expireSession(session.id);
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(paymentPanel(page).getByRole('heading', { name: 'This checkout has expired' })).toBeVisible();
  expect((await getSession(session.id)).payment_id).toBeNull();
});

test('a completed session, revisited, shows the payment and a way back, not a form', async ({ page }) => {
  const session = await createSession(usdSession());
  await payWithTestHelper(session.id, { payment_method: 'card', card_number: '4242424242424242' });
  await page.goto(session.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Paid to ${MERCHANT_NAME}`);
  await expect(paymentPanel(page).getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(paymentPanel(page)).toContainText(`${MERCHANT_NAME} has received US$37.50, paid with Visa •••• 4242.`);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  // the way back carries session_id, like the redirect after paying
  await paymentPanel(page)
    .getByRole('link', { name: `Return to ${MERCHANT_NAME}` })
    .click();
  await page.waitForURL(`${SHOP}/**`);
  expect(new URL(page.url()).searchParams.get('session_id')).toBe(session.id);
});

test('a session whose order another session already paid cannot be paid', async ({ page }) => {
  const order_reference = uniqueReference('shared-order');
  const first = await createSession(usdSession({ order_reference }));
  const second = await createSession(usdSession({ order_reference }));
  await payWithTestHelper(first.id, { payment_method: 'usdc' });

  await page.goto(second.url);
  await expect(paymentPanel(page).getByRole('heading', { name: 'This order has already been paid' })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  expect((await getSession(second.id)).status).toBe('open');
});

test('an order paid elsewhere while the customer is on the page is not paid twice', async ({ page }) => {
  const order_reference = uniqueReference('race');
  const first = await createSession(usdSession({ order_reference }));
  const second = await createSession(usdSession({ order_reference }));
  await page.goto(second.url);
  await page.getByRole('tab', { name: 'USDC' }).click();
  await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
  await payWithTestHelper(first.id, { payment_method: 'card', card_number: '4242424242424242' });
  await page.getByRole('button', { name: 'Simulate transfer' }).click();
  await expect(paymentPanel(page).getByRole('heading', { name: 'This order has already been paid' })).toBeVisible();
  expect((await getSession(second.id)).payment_id).toBeNull();
});

test('unknown and malformed checkout ids get the 404 page', async ({ page }) => {
  for (const id of ['cs_000000000000000000000000', 'not-a-session', 'cs_%3Cscript%3E']) {
    const response = await page.goto(`/checkout/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole('heading', { name: 'Checkout not found' })).toBeVisible();
    await expect(page.getByText('Sandbox — no real money moves')).toBeVisible();
  }
});

test('merchant-given text is shown as text, and the page cannot be framed', async ({ page }) => {
  const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  const session = await createSession(usdSession({ items: [{ name: hostile, quantity: 2, unit_amount: 1500 }] }));
  const response = await page.goto(session.url);

  await expect(page.locator('#order-summary').getByText(hostile)).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('#order-summary img').count()).toBe(0);

  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
});
