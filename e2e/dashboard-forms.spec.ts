import { expect, test, type Page } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  payByCard,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import { DESKTOP, expectAccessible, PHONE } from './support';

// Forms that behave: signing in returns to the page that was asked for, a dropped connection leaves the
// form and what was typed in place with a line saying so, and every field's problem is said at once,
// beside the field, and forgotten once the field is edited.

/** The accessibility check at desktop and at phone size. */
async function expectAccessibleBoth(page: Page): Promise<void> {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await expectAccessible(page);
  }
  await page.setViewportSize(DESKTOP);
}

test('a merchant opening a bookmarked dashboard page signs in and lands on that page, filters included', async ({
  page,
}) => {
  const merchant = newMerchant('Bookmark');
  await signUp(page, merchant);
  await page.context().clearCookies();

  await page.goto('/dashboard/refunds?status=failed');
  await page.waitForURL('**/login?**');
  expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe('/dashboard/refunds?status=failed');
  await page.getByLabel('E-mail').fill(merchant.email);
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard/refunds' && url.search === '?status=failed');
  await expect(page.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();

  // the page asked for is what the server saw, whatever a client claims it asked for
  await page.context().clearCookies();
  const response = await page.request.get('/dashboard/payments?page=2', {
    maxRedirects: 0,
    headers: { 'X-Dashboard-Requested-Path': 'https://evil.example.com/dashboard' },
  });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toMatch(
    /^(http:\/\/127\.0\.0\.1:\d+)?\/login\?callbackUrl=%2Fdashboard%2Fpayments%3Fpage%3D2$/,
  );
  // Home needs no callbackUrl
  const home = await page.request.get('/dashboard', { maxRedirects: 0 });
  expect(home.headers().location).toMatch(/\/login$/);
});

/** Every server action POST from this page fails as a dropped connection does, until the returned function is called. */
async function dropServerActions(page: Page): Promise<() => Promise<void>> {
  const matcher = (url: URL) => url.pathname.startsWith('/dashboard');
  await page.route(matcher, (route) =>
    route.request().method() === 'POST' && route.request().headers()['next-action']
      ? route.abort('internetdisconnected')
      : route.fallback(),
  );
  return () => page.unroute(matcher);
}

test('a refund sent while the connection is down says so in the form and keeps the typed amount; sent again, it goes through', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Flaky Wifi'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  const { body: paid } = await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`);

  await page.goto(`/dashboard/payments/${paid.payment_id}`);
  await page.getByLabel('Amount (USD)').fill('3.21');
  await page.getByLabel('Reason (optional)').fill('Scuffed box');
  const reconnect = await dropServerActions(page);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$3.21?' }).getByRole('button', { name: 'Refund US$3.21' }).click();

  await expect(
    page.getByRole('alert').filter({
      hasText: 'We could not reach the server. Check your connection and try again; what you typed is still here.',
    }),
  ).toBeVisible();
  // the page is still the payment's, not the error page, and nothing typed was lost
  await expect(page.getByText('This page could not be loaded')).toHaveCount(0);
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('3.21');
  await expect(page.getByLabel('Reason (optional)')).toHaveValue('Scuffed box');
  await screenshotBoth(page, 'refund-offline');
  await expectAccessibleBoth(page);

  await reconnect();
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$3.21?' }).getByRole('button', { name: 'Refund US$3.21' }).click();
  await expect(page.getByText('Refund of US$3.21 requested.')).toBeVisible();
  const { body: refunds } = await v1(key, 'GET', `/v1/refund-requests?payment_id=${paid.payment_id}`);
  expect(refunds.data.map((refund: { amount: number }) => refund.amount)).toEqual([321]);
});

test('a new payment link with several problems names each beside its field at once, and an edited field drops its error', async ({
  page,
}) => {
  await signUp(page, newMerchant('Many Mistakes'));
  await page.goto('/dashboard/payment-links/new');
  await page.getByLabel('Price').fill('twenty');
  // nothing typed in Name: the server says so, together with the price (the browser's bubble never stops the form)
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/^Enter a name of up to 200 characters\./);
  await expect(page.getByLabel('Price')).toHaveAccessibleDescription('Enter a price like 25.00 (at most 999,999.99).');
  await expect(page.getByLabel('Price')).toHaveValue('twenty');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotBoth(page, 'payment-link-all-errors');
  await expectAccessibleBoth(page);

  // emptying the price is a change: its error no longer applies until the form is sent again
  await page.getByLabel('Price').fill('');
  await expect(page.getByLabel('Price')).not.toHaveAccessibleDescription(/Enter a price/);
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/^Enter a name/);
  await page.getByLabel('Name').fill('Pottery workshop');
  await expect(page.getByLabel('Name')).not.toHaveAccessibleDescription(/^Enter a name/);
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByLabel('Price')).toHaveAccessibleDescription('Enter a price like 25.00 (at most 999,999.99).');
  await expect(page.getByLabel('Name')).not.toHaveAccessibleDescription(/^Enter a name/);
  await page.getByLabel('Price').fill('40');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.waitForURL(/\/dashboard\/payment-links\/pl_/);
});

test('sign-up, sign-in and a webhook URL say what is missing beside each field, never in a browser bubble', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Business name')).toHaveAccessibleDescription(/^Enter your business name\./);
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Enter an e-mail address like you@example.com.');
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(/^Use at least 10 characters\./);
  await page.getByLabel('Business name').fill('Quiet Forms');
  await expect(page.getByLabel('Business name')).toHaveAccessibleDescription(
    'Shown to customers on your hosted checkout page.',
  );
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Enter an e-mail address like you@example.com.');
  await screenshotBoth(page, 'signup-all-errors');
  await expectAccessibleBoth(page);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Enter your e-mail.');
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription('Enter your password.');
  await screenshotBoth(page, 'login-missing');
  await expectAccessibleBoth(page);

  const merchant = newMerchant('Quiet Forms');
  await signUp(page, merchant);
  await page.goto('/dashboard/developers/webhooks');
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const form = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await form.getByRole('radio', { name: 'Selected events' }).check();
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(form.getByLabel('Endpoint URL')).toHaveAccessibleDescription(
    'Enter the URL of your receiver, like https://example.com/webhooks.',
  );
  await expect(form.getByText('Choose at least one event type, or all events.')).toBeVisible();
  await screenshotBoth(page, 'webhook-all-errors');
  await expectAccessibleBoth(page);
});
