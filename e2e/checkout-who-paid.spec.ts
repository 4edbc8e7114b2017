import { expect, test } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import {
  cadSession,
  createSession,
  DESKTOP,
  expectAccessible,
  paymentPanel,
  PHONE,
  screenshot,
  SHOP,
  shopRoutes,
  usdSession,
} from './support';

// Who paid: the hosted page asks the customer's e-mail (prefilled from the session's customer_email), needs
// it for USDC and Interac and not for a card, says on success where a receipt would go, and the merchant finds
// the payment by that e-mail in the dashboard.

test.beforeEach(async ({ page }) => {
  await shopRoutes(page);
});

test('a card payment takes no e-mail, and one given is where the receipt would go', async ({ page }) => {
  const session = await createSession(usdSession({ payment_methods: ['card'] }));
  await page.goto(session.url);
  const email = page.getByLabel('E-mail (optional)');
  await expect(email).toHaveValue('');
  await expect(email).toHaveAccessibleDescription('Where Demo Shop would send your receipt.');
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'checkout-email-card-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'checkout-email-card-phone');
  await expectAccessible(page);

  // a wrong address stops the payment, even though an empty one would not
  await email.fill('ada@');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address.');
  await expect(email).toBeFocused();

  await email.fill('ada@example.com');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('status')).toContainText(
    'A receipt would be sent to ada@example.com (this sandbox sends no e-mail).',
  );
  await page.waitForURL(`${SHOP}/**`);
  // the session keeps what the merchant gave (nothing); the payment has what the customer typed
  const paid = (await v1(E2E_API_KEY, 'GET', `/v1/checkout-sessions/${session.id}`)).body;
  expect(paid.customer_email).toBeNull();
  const payment = (await v1(E2E_API_KEY, 'GET', `/v1/payments/${paid.payment_id}`)).body;
  expect(payment.customer_email).toBe('ada@example.com');

  // back on the page later: it still says where the receipt would go
  await page.goto(session.url);
  await expect(paymentPanel(page)).toContainText('A receipt would be sent to ada@example.com');
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'checkout-email-paid-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'checkout-email-paid-phone');
  await expectAccessible(page);
});

test('USDC and Interac need an e-mail, prefilled from the session', async ({ page }) => {
  const usd = await createSession(usdSession());
  await page.goto(usd.url);
  await page.getByRole('tab', { name: 'USDC' }).click();
  const email = page.getByLabel('E-mail', { exact: true });
  await page.getByRole('button', { name: 'Simulate transfer' }).click();
  await expect(email).toHaveAccessibleDescription('Enter your e-mail address.');
  await expect(email).toBeFocused();
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'checkout-email-usdc-required-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'checkout-email-usdc-required-phone');
  await expectAccessible(page);

  const cad = await createSession(cadSession({ customer_email: 'marie.tremblay@example.ca' }));
  await page.goto(cad.url);
  await page.getByRole('tab', { name: 'Interac' }).click();
  await expect(email).toHaveValue('marie.tremblay@example.ca');
  await page.getByLabel('Bank').selectOption('Desjardins');
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page.getByRole('status')).toContainText('A receipt would be sent to marie.tremblay@example.ca');
  await page.waitForURL(`${SHOP}/**`);
});

test('the merchant sees who paid on the payment and the session, and finds the payment by e-mail', async ({ page }) => {
  test.setTimeout(120_000);
  const merchant = newMerchant('Who paid');
  await signUp(page, merchant);
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key, { customer_email: 'Grace.Hopper@example.com' });

  const customer = await page.context().newPage();
  await shopRoutes(customer);
  await customer.goto(session.url);
  await expect(customer.getByLabel('E-mail (optional)')).toHaveValue('Grace.Hopper@example.com');
  await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await customer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByLabel('Name on card').fill('Grace Hopper');
  await customer.getByRole('button', { name: /^Pay / }).click();
  await customer.waitForURL(`${SHOP}/**`);
  await customer.close();

  const payments = await v1(key, 'GET', '/v1/payments?customer_email=grace.hopper%40example.com');
  expect(payments.body.data).toHaveLength(1);
  const paymentId = payments.body.data[0].id as string;

  await page.goto('/dashboard/payments');
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table).toContainText('Grace.Hopper@example.com');
  await page.getByLabel('Search').fill('hopper@');
  await page.getByLabel('Search').press('Enter');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Grace.Hopper@example.com');
  await screenshotBoth(page, 'payments-search-email');
  await expectAccessible(page);

  await page.goto(`/dashboard/payments/${paymentId}`);
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('Customer e-mailGrace.Hopper@example.com');
  await page.goto(`/dashboard/checkout-sessions/${session.id}`);
  await expect(page.getByText('Grace.Hopper@example.com')).toBeVisible();
});
