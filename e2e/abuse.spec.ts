import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ABUSE_BASE_URL, E2E_ABUSE_DATA_DIR, E2E_API_KEY } from '../playwright.config';
import { newMerchant, PASSWORD } from './dashboard-support';
import { SHOP } from './support';

// Anonymous visitors who try to cost the sandbox or its merchants something — card testing, a finger on
// the Pay button, sign-up scripts, password guessing behind forged headers — against a server running
// every abuse control at its production default and believing no proxy.

test.use({ baseURL: E2E_ABUSE_BASE_URL });

async function api<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${E2E_ABUSE_BASE_URL}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${E2E_API_KEY}`,
      ...(body ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

test('a card tester is stopped after 10 declined cards on one checkout, and the customer can still pay by USDC', async ({
  page,
}) => {
  const session = await api('POST', '/v1/checkout-sessions', {
    order_reference: `card-testing-${randomUUID().slice(0, 8)}`,
    currency: 'USD',
    items: [{ name: 'Gift card', quantity: 1, unit_amount: 5000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 5000,
    return_url: `${SHOP}/thanks`,
  });
  await page.route(`${SHOP}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>Back at the shop</h1>' }),
  );
  await page.goto(session.url);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Card Tester');
  const alert = page.getByRole('region', { name: 'Payment' }).getByRole('alert');
  for (let attempt = 1; attempt <= 10; attempt += 1) {
    // a different stolen number each time, declined each time
    await page.getByLabel('Card number').fill(attempt % 2 ? '4000 0000 0000 0002' : '4000 0000 0000 9995');
    await page.getByRole('button', { name: 'Pay US$50.00' }).click();
    await expect(alert).toContainText(/declined|insufficient funds/);
  }
  // the tenth decline was the last: the card form gives way to the way back, so there is no eleventh try
  await expect(alert).toContainText('This checkout can’t take more cards');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  const payments = await api<{ data: { status: string }[] }>(
    'GET',
    `/v1/payments?order_reference=${session.order_reference}&limit=100`,
  );
  expect(payments.data.map((payment) => payment.status)).toEqual(Array(10).fill('failed'));

  await page.getByRole('tab', { name: /USDC/ }).click();
  await page.getByLabel('E-mail', { exact: true }).fill('buyer@example.com');
  await page.getByRole('button', { name: /Simulate/ }).click();
  await page.waitForURL(`${SHOP}/**`);
});

test('a visitor who keeps pressing Pay on a payment link is asked to wait after 20 checkouts a minute', async ({
  page,
}) => {
  // the throttle's minute starts at the first checkout, so the 20 must fit in it on a loaded machine too: each
  // press waits for the link's form and for the checkout's address, not for the checkout page to load
  test.setTimeout(120_000);
  const link = await api('POST', '/v1/payment-links', { name: 'Concert ticket', amount: 4500, currency: 'USD' });
  for (let press = 1; press <= 20; press += 1) {
    await page.goto(`/pay/${link.id}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Pay US$45.00' }).click();
    await page.waitForURL('**/checkout/cs_*', { waitUntil: 'commit' });
  }
  await page.goto(`/pay/${link.id}`);
  await page.getByRole('button', { name: 'Pay US$45.00' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Too many checkouts were started from your network. Nothing was charged; try again in 1 minute.',
  );
  expect(page.url()).toContain(`/pay/${link.id}`);
});

async function signUpThroughForm(page: Page, email: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Business name').fill('Scripted Shop');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

test('sign-ups from one network stop after five an hour, with a message that says so', async ({ page }) => {
  for (let account = 1; account <= 5; account += 1) {
    await signUpThroughForm(page, newMerchant('Scripted').email);
    await page.waitForURL('**/dashboard');
    await page.context().clearCookies();
  }
  await signUpThroughForm(page, newMerchant('Scripted').email);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    /^Too many accounts were created from your network\. Try again in \d+ minutes\.$/,
  );
  expect(page.url()).toContain('/signup');
});

test('a password guesser who forges X-Forwarded-For on every try is still stopped after five guesses', async ({
  page,
}) => {
  // the account is made by the operator's CLI: this network has used up its sign-ups above
  const owner = newMerchant('Guarded');
  execFileSync(
    process.execPath,
    [
      'node_modules/.bin/tsx',
      'scripts/sandbox.ts',
      'create-merchant',
      '--name',
      owner.businessName,
      '--email',
      owner.email,
      '--password',
      PASSWORD,
    ],
    {
      env: { ...process.env, DATA_DIR: E2E_ABUSE_DATA_DIR },
    },
  );

  await page.goto('/login');
  await page.getByLabel('E-mail').fill(owner.email);
  for (let guess = 1; guess <= 5; guess += 1) {
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${guess}` });
    await page.getByLabel('Password').fill(`guess number ${guess}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'That e-mail and password do not match an account.',
    );
  }
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': '198.51.100.99' });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText(/^Too many sign-in attempts\./);
});
