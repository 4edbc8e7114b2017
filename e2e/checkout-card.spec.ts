import { expect, test, type Page } from '@playwright/test';
import {
  createSession,
  getSession,
  MERCHANT_NAME,
  paymentPanel,
  paymentsOf,
  SHOP,
  shopRoutes,
  usdSession,
} from './support';

// Stories of a customer paying by card on the hosted checkout page.

test.beforeEach(async ({ page }) => {
  await shopRoutes(page);
});

async function fillCard(page: Page, card: { number: string; expiry?: string; cvc?: string; name?: string }) {
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry (MM / YY)').fill(card.expiry ?? '12 / 34');
  await page.getByLabel('CVC').fill(card.cvc ?? '123');
  await page.getByLabel('Name on card').fill(card.name ?? 'Ada Lovelace');
}

test('a customer pays by card and lands on the merchant’s return URL with session_id', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);

  await expect(page).toHaveTitle(`Pay ${MERCHANT_NAME} · Sandbox Payments`);
  await expect(page.getByRole('heading', { level: 1, name: `Pay ${MERCHANT_NAME}` })).toBeVisible();
  await expect(page.getByText('Sandbox — no real money moves')).toBeVisible();
  await expect(page.getByRole('timer')).toHaveText(/Expires in (29|30):\d\d/);
  const summary = page.locator('#order-summary');
  await expect(summary.getByText('Organic cotton T-shirt')).toBeVisible();
  await expect(summary.getByText('Qty 2 · US$15.00 each')).toBeVisible();
  await expect(summary.getByRole('definition').filter({ hasText: 'US$5.00' })).toBeVisible();
  await expect(summary.getByRole('definition').filter({ hasText: 'US$2.50' })).toBeVisible();
  await expect(summary.getByRole('definition').filter({ hasText: 'US$37.50' })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['Card', 'USDC']);

  // the number is grouped as it is typed and the brand recognised
  const number = page.getByLabel('Card number');
  await number.pressSequentially('4242424242424242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByText('Visa', { exact: true })).toBeAttached();
  await page.getByLabel('Expiry (MM / YY)').pressSequentially('1234');
  await expect(page.getByLabel('Expiry (MM / YY)')).toHaveValue('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');

  const navigation = page.waitForURL(`${SHOP}/**`);
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(page.getByRole('status')).toContainText('Payment received');
  await expect(page.getByRole('status')).toContainText(`Returning you to ${MERCHANT_NAME}`);
  await navigation;

  const landed = new URL(page.url());
  expect(landed.pathname).toBe('/orders/thanks');
  expect(landed.searchParams.get('ref')).toBe('42');
  expect(landed.searchParams.get('session_id')).toBe(session.id);

  const paid = await getSession(session.id);
  expect(paid.status).toBe('complete');
  const [payment] = await paymentsOf(session.order_reference);
  expect(payment.status).toBe('succeeded');
  // only brand, last4 and expiry are kept
  expect(payment.payment_method_details).toEqual({
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
  });
});

test('a declined card, then a good one', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);

  await fillCard(page, { number: '4000 0000 0000 0002' });
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(paymentPanel(page).getByRole('alert')).toHaveText(
    'Your card was declined. Nothing was paid — try another card.',
  );
  expect((await getSession(session.id)).status).toBe('open');

  // the form kept what was typed; a second decline reason
  await page.getByLabel('Card number').fill('4000 0000 0000 9995');
  await expect(paymentPanel(page).getByRole('alert')).toBeHidden();
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(paymentPanel(page).getByRole('alert')).toHaveText(
    'Your card has insufficient funds. Nothing was paid — try another card.',
  );

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await page.waitForURL(`${SHOP}/**`);
  expect(new URL(page.url()).searchParams.get('session_id')).toBe(session.id);

  const payments = await paymentsOf(session.order_reference);
  expect(payments.map((payment) => [payment.status, payment.failure_code]).sort()).toEqual([
    ['failed', 'card_declined'],
    ['failed', 'insufficient_funds'],
    ['succeeded', null],
  ]);
});

test('the browser catches a mistyped card before anything is sent', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);

  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(page.getByLabel('Card number')).toBeFocused();
  await expect(page.getByText('Enter your card number.')).toBeVisible();
  await expect(page.getByText('Enter the name on your card.')).toBeVisible();

  await fillCard(page, { number: '4242 4242 4242 4241', expiry: '01 / 20', cvc: '12' });
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(page.getByLabel('Card number')).toHaveAccessibleDescription('Your card number is invalid.');
  await expect(page.getByLabel('Expiry (MM / YY)')).toHaveAccessibleDescription('Your card has expired.');
  await expect(page.getByLabel('CVC')).toHaveAccessibleDescription('The CVC is incomplete.');
  expect(await paymentsOf(session.order_reference)).toEqual([]);
});

test('the server checks the card again when the browser is wrong', async ({ page }) => {
  // a device clock years behind lets an expired card through the browser's check; the server refuses it
  await page.clock.setSystemTime(new Date('2020-01-15T12:00:00Z'));
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await fillCard(page, { number: '4242 4242 4242 4242', expiry: '06 / 21' });
  await page.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(page.getByLabel('Expiry (MM / YY)')).toHaveAccessibleDescription('Your card has expired.');
  await expect(page.getByLabel('Expiry (MM / YY)')).toBeFocused();
  expect(await paymentsOf(session.order_reference)).toEqual([]);
  expect((await getSession(session.id)).status).toBe('open');
});

test('a double click pays once', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await fillCard(page, { number: '4242 4242 4242 4242' });
  const payRequests: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.headers()['next-action']) payRequests.push(request.url());
  });
  await page.getByRole('button', { name: 'Pay US$37.50' }).dblclick();
  await page.waitForURL(`${SHOP}/**`);
  // the browser sent one payment, and the service recorded one
  expect(payRequests).toHaveLength(1);
  const payments = await paymentsOf(session.order_reference);
  expect(payments.map((payment) => payment.status)).toEqual(['succeeded']);
});

test('two tabs pay once: the second sees the session is already paid', async ({ context }) => {
  const session = await createSession(usdSession());
  const first = await context.newPage();
  const second = await context.newPage();
  await shopRoutes(first);
  await shopRoutes(second);
  await first.goto(session.url);
  await second.goto(session.url);

  await fillCard(first, { number: '4242 4242 4242 4242' });
  await fillCard(second, { number: '5555 5555 5555 4444' });
  await first.getByRole('button', { name: 'Pay US$37.50' }).click();
  await first.waitForURL(`${SHOP}/**`);

  await second.getByRole('button', { name: 'Pay US$37.50' }).click();
  await expect(second.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(second.getByText(`${MERCHANT_NAME} has received US$37.50, paid with Visa •••• 4242.`)).toBeVisible();
  await expect(second.getByLabel('Card number')).toHaveCount(0);

  const payments = await paymentsOf(session.order_reference);
  expect(payments.map((payment) => payment.payment_method_details.card.last4)).toEqual(['4242']);
});
