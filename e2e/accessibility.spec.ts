import { expect, test, type Page } from '@playwright/test';
import { E2E_API_KEY } from '../playwright.config';
import {
  createSession,
  DESKTOP,
  MERCHANT_NAME,
  PHONE,
  payWithTestHelper,
  screenshot,
  SHOP,
  shopRoutes,
  strictAxeFindings,
  usdSession,
} from './support';
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

// Every page, hosted and dashboard, at desktop and phone widths, through axe under the stricter rules of
// strictAxeFindings (e2e/support.ts). Then the stories that go with them.

/** The page at both widths, settled (no skeleton still streaming), with what axe finds at each. */
async function checkBothWidths(page: Page, label: string, findings: string[]): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect(page.locator('.animate-pulse')).toHaveCount(0);
    // let what measures itself at the new width (a table's scroll box) settle first
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const finding of await strictAxeFindings(page)) findings.push(`${label} (${size}): ${finding}`);
  }
  await page.setViewportSize(DESKTOP);
}

async function visitAll(page: Page, addresses: [label: string, path: string][]): Promise<string[]> {
  const findings: string[] = [];
  for (const [label, path] of addresses) {
    await page.goto(path);
    await checkBothWidths(page, label, findings);
  }
  return findings;
}

test('the hosted pages, the site’s 404 and the public pages pass axe at both widths', async ({ page }) => {
  test.setTimeout(180_000);
  await shopRoutes(page);
  const open = await createSession(usdSession());
  const paid = await createSession(usdSession());
  await payWithTestHelper(paid.id, { payment_method: 'card', card_number: '4242424242424242' });
  const link = (
    await v1<{ id: string; url: string }>(E2E_API_KEY, 'POST', '/v1/payment-links', {
      name: 'Gift card',
      description: 'A gift card for any tee.',
      amount: 2500,
      currency: 'USD',
    })
  ).body;

  const findings = await visitAll(page, [
    ['home', '/'],
    ['sign in', '/login'],
    ['sign up', '/signup'],
    ['open checkout', new URL(open.url).pathname],
    ['paid checkout', new URL(paid.url).pathname],
    ['unknown checkout', '/checkout/cs_000000000000000000000000'],
    ['payment link', new URL(link.url).pathname],
    ['unknown payment link', '/pay/pl_000000000000000000000000'],
    ['site 404', '/no-such-page'],
  ]);

  // the USDC tab and the phone's unfolded order summary are states of their own
  await page.goto(new URL(open.url).pathname);
  await page.getByRole('tab', { name: 'USDC' }).click();
  await checkBothWidths(page, 'checkout, USDC', findings);
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: /Show order summary/ }).click();
  for (const finding of await strictAxeFindings(page)) findings.push(`checkout, summary open (phone): ${finding}`);
  expect(findings).toEqual([]);
});

test('the API reference passes axe at desktop width (docs.spec.ts checks it on a phone, contents open)', async ({
  page,
}) => {
  // one very long page: slow on two cores
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await page.goto('/docs');
  expect(await strictAxeFindings(page)).toEqual([]);
});

test('a merchant’s pages, empty and full, pass axe at both widths', async ({ page }) => {
  test.setTimeout(360_000);
  await signUp(page, newMerchant('Axe Works'));
  const empty = await visitAll(page, [
    ['home, empty', '/dashboard'],
    ['payments, empty', '/dashboard/payments'],
    ['refunds, empty', '/dashboard/refunds'],
    ['checkout sessions, empty', '/dashboard/checkout-sessions'],
    ['payment links, empty', '/dashboard/payment-links'],
    ['API keys, empty', '/dashboard/developers/api-keys'],
    ['webhooks, empty', '/dashboard/developers/webhooks'],
    ['events, empty', '/dashboard/developers/events'],
    ['logs, empty', '/dashboard/developers/logs'],
    ['settings', '/dashboard/settings'],
    ['dashboard 404', '/dashboard/payments/pay_000000000000000000000000'],
  ]);
  expect(empty).toEqual([]);

  // a paid session, a refund, a payment link, a webhook endpoint and the events they made
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  const paymentId = (await v1<{ payment_id: string }>(key, 'GET', `/v1/checkout-sessions/${session.id}`)).body
    .payment_id;
  expect(
    (await v1(key, 'POST', '/v1/refund-requests', { payment_id: paymentId, amount: 500, reason: 'One size too small' }))
      .status,
  ).toBe(201);
  const link = (
    await v1<{ id: string }>(key, 'POST', '/v1/payment-links', { name: 'Poster', amount: 1200, currency: 'USD' })
  ).body;
  const endpoint = (
    await v1<{ id: string }>(key, 'POST', '/v1/webhook-endpoints', { url: `${SHOP}/hooks`, events: ['*'] })
  ).body;
  const event = (await v1<{ data: { id: string }[] }>(key, 'GET', '/v1/events?limit=1')).body.data[0];

  const full = await visitAll(page, [
    ['home', '/dashboard'],
    ['payments', '/dashboard/payments'],
    ['payment', `/dashboard/payments/${paymentId}`],
    ['refunds', '/dashboard/refunds'],
    ['checkout sessions', '/dashboard/checkout-sessions'],
    ['checkout session', `/dashboard/checkout-sessions/${session.id}`],
    ['payment links', '/dashboard/payment-links'],
    ['payment link', `/dashboard/payment-links/${link.id}`],
    ['new payment link', '/dashboard/payment-links/new'],
    ['API keys', '/dashboard/developers/api-keys'],
    ['webhooks', '/dashboard/developers/webhooks'],
    ['webhook endpoint', `/dashboard/developers/webhooks/${endpoint.id}`],
    ['events', '/dashboard/developers/events'],
    ['event', `/dashboard/developers/events/${event.id}`],
    ['logs', '/dashboard/developers/logs'],
  ]);
  expect(full).toEqual([]);
});

test('the sandbox notice is in the page’s banner landmark, on hosted and dashboard pages', async ({ page }) => {
  for (const path of ['/', '/docs', '/no-such-page', new URL((await createSession(usdSession())).url).pathname]) {
    await page.goto(path);
    await expect(page.getByRole('banner').getByText('Sandbox — no real money moves'), path).toBeVisible();
  }
});

test('on a phone, Escape closes the dashboard menu and the keyboard is back on the Menu button', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUp(page, newMerchant('Escape Hatch'));
  const menuButton = page.getByRole('button', { name: 'Menu' });
  await menuButton.click();
  const menu = page.getByRole('navigation', { name: 'Dashboard' }).filter({ visible: true });
  await menu.getByRole('link', { name: 'Payments' }).focus();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton).toBeFocused();
  // and opens again from there with the keyboard
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('link', { name: 'Payments' })).toBeVisible();
});

test('an event’s payload scrolls with the keyboard, and empty pages keep their headings in order', async ({ page }) => {
  await signUp(page, newMerchant('Key Scroll'));
  // an empty list's title sits right under the page's h1
  await page.goto('/dashboard/developers/events');
  await expect(page.getByRole('heading', { level: 2, name: 'No events yet' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 3, name: 'No payments yet' })).toBeVisible();

  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  const event = (
    await v1<{ data: { id: string; type: string }[] }>(key, 'GET', '/v1/events?type=checkout_session.completed')
  ).body.data[0];
  await page.goto(`/dashboard/developers/events/${event.id}`);
  const payload = page.getByRole('region', { name: 'Event payload' });
  await expect(payload).toContainText(`"id": "${event.id}"`);
  // reached by Tab like any control, then scrolled by the keys a reader uses
  await payload.evaluate((element) => element.scrollTo(0, 0));
  await page.getByRole('link', { name: 'Open in the dashboard' }).focus();
  let tabs = 0;
  while (!(await payload.evaluate((element) => element === document.activeElement)) && tabs++ < 30)
    await page.keyboard.press('Tab');
  await expect(payload).toBeFocused();
  const scrollable = await payload.evaluate((element) => element.scrollHeight > element.clientHeight);
  expect(scrollable, 'the payload is taller than its box, so there is something to scroll').toBe(true);
  await page.keyboard.press('End');
  await expect.poll(() => payload.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  await screenshotBoth(page, 'event-payload');
});

test('every link of the /docs sidebar and of the endpoint lists in its guides is a target at least 24 px tall', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/docs');
  const lists = [
    page.getByRole('navigation', { name: 'Documentation' }),
    page.getByRole('region', { name: 'Scopes and the endpoints that need them' }),
    page.locator('#idempotency li'),
    page.getByRole('region', { name: 'List endpoints and their filters' }),
  ];
  const heights: (readonly [string, number])[] = [];
  for (const list of lists) {
    const links = list.getByRole('link');
    expect(await links.count()).toBeGreaterThan(0);
    heights.push(
      ...(await links.evaluateAll((elements) =>
        elements.map((element) => [element.textContent ?? '', element.getBoundingClientRect().height] as const),
      )),
    );
  }
  expect(heights.length).toBeGreaterThan(50);
  expect(heights.filter(([, height]) => height < 24)).toEqual([]);
});

test('the checkout’s back link is read as "Back to" and the merchant, not the monogram', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  const back = page.getByRole('link', { name: `Back to ${MERCHANT_NAME}`, exact: true });
  await expect(back).toHaveAttribute('href', `${SHOP}/cart`);
  await expect(back).toHaveAccessibleName(`Back to ${MERCHANT_NAME}`);
});

test('the site’s 404 page: the product’s look, a 404 status, and ways back', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Ways back' }).getByRole('link', { name: 'API reference' }),
  ).toHaveAttribute('href', '/docs');
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenshot(page, `site-not-found-${size}`);
  }
});

test('the favicon is our own, served from this origin', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
  expect(href).toMatch(/^\/icon\.svg/);
  const icon = await page.request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});
