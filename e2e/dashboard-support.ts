import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { SCOPES } from '@/lib/api-keys/scopes';
import { E2E_BASE_URL } from '../playwright.config';
import { DESKTOP, PHONE, screenshot, SHOP, shopRoutes } from './support';

// Steps shared by the dashboard stories: a merchant signing up and in, their server calling /v1 with a
// key made in the dashboard, a customer paying on the hosted page, and screenshots at both sizes.

export const PASSWORD = 'correct horse battery staple';

export type Merchant = { businessName: string; email: string; password: string };

export function newMerchant(label: string): Merchant {
  const id = randomUUID().slice(0, 8);
  return {
    businessName: `${label} ${id}`,
    email: `${label.toLowerCase().replace(/\W+/g, '-')}-${id}@example.com`,
    password: PASSWORD,
  };
}

/**
 * Signs up over HTTP, as the sign-up form does (its server action, then next-auth's credentials sign-in),
 * with the page's own cookies, and lands on Home: for the stories about what a merchant does once in.
 * The form itself is signUpThroughForm's, in the stories about signing up.
 */
export async function signUp(page: Page, merchant: Merchant): Promise<void> {
  const request = page.request;
  // the sign-up form is not one of useActionState: its action gets the FormData alone
  await submitAction(
    page,
    'signUpAction',
    '/signup',
    [
      ['businessName', merchant.businessName],
      ['email', merchant.email],
      ['password', merchant.password],
    ],
    { previousState: false },
  );
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const signedIn = await request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: merchant.email, password: merchant.password, json: 'true' },
    maxRedirects: 0,
  });
  expect(signedIn.status(), await signedIn.text()).toBeLessThan(400);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
}

/**
 * Submits a form's server action over HTTP, as the page's JavaScript does, with the page's cookies, and
 * expects the form's "ok": for a story's setup, where the form itself is another story's subject. A form of
 * useActionState gets (its previous state, its FormData), a plain form action its FormData alone
 * (`previousState: false`). React's client encodes a FormData argument as its fields under the prefix "_1_"
 * and the arguments as JSON naming it "$K1". Returns the answer (React's payload), which carries what the
 * form would show.
 */
async function submitAction(
  page: Page,
  action: string,
  path: string,
  fields: [string, string][],
  { previousState = true } = {},
): Promise<string> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(`_1_${name}`, value);
  form.append('0', JSON.stringify(previousState ? [{ status: 'idle' }, '$K1'] : ['$K1']));
  const response = await page.request.post(path, {
    headers: { 'Next-Action': actionId(action), Origin: E2E_BASE_URL, Accept: 'text/x-component' },
    multipart: form,
  });
  const answer = await response.text();
  expect(response.status(), answer).toBe(200);
  expect(answer, `${action} answers ok`).toContain('"status":"ok"');
  return answer;
}

let actionIds: Map<string, string> | undefined;
/** A server action's id in this build, from its manifest: build first. */
function actionId(exportedName: string): string {
  if (!actionIds) {
    // npm test builds into NEXT_DIST_DIR (scripts/test.sh); a plain `npx next build` into .next
    const path = `${process.env.NEXT_DIST_DIR || '.next'}/server/server-reference-manifest.json`;
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { node: Record<string, { exportedName?: string }> };
    actionIds = new Map();
    for (const [id, { exportedName }] of Object.entries(manifest.node))
      if (exportedName) actionIds.set(exportedName, id);
  }
  const id = actionIds.get(exportedName);
  if (!id) throw new Error(`no server action ${exportedName} in this build: build first`);
  return id;
}

/** Signs up through the form and lands on Home. */
export async function signUpThroughForm(page: Page, merchant: Merchant): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Business name').fill(merchant.businessName);
  await page.getByLabel('E-mail').fill(merchant.email);
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
}

export async function signIn(page: Page, merchant: Pick<Merchant, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(merchant.email);
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * The sidebar on desktop; on a phone the same links sit behind the Menu button. Returns once the page is
 * the link's and, on a phone, the menu has closed: a story that measures the page right after must not
 * measure the one it left, or the open menu above it.
 */
export async function openNav(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  const menu = !(await nav.isVisible());
  if (menu) await page.getByRole('button', { name: 'Menu' }).click();
  const link = nav.getByRole('link', { name, exact: true });
  const href = await link.getAttribute('href');
  await link.click();
  await page.waitForURL((url) => url.pathname === href);
  if (menu) await expect(nav).toBeHidden();
}

/** Approves a website, as Settings' form does, over HTTP (approveWebsiteInSettings is the form itself). */
export async function approveWebsite(page: Page, host: string): Promise<void> {
  await submitAction(page, 'addWebsiteAction', '/dashboard/settings', [['host', host]]);
}

/** Approves a website in Settings, as the merchant would. */
export async function approveWebsiteInSettings(page: Page, host: string): Promise<void> {
  await page.goto('/dashboard/settings');
  await page.getByRole('textbox', { name: 'Host' }).fill(host);
  await page.getByRole('button', { name: 'Add website' }).click();
  await expect(page.getByRole('button', { name: `Remove ${host}` })).toBeVisible();
}

/**
 * Creates a key with every scope, as the API keys page's dialog does, over HTTP, and reads it from the answer
 * (createKeyInDialog is the dialog itself).
 */
export async function createKey(page: Page): Promise<string> {
  const scopes = SCOPES.map((scope): [string, string] => ['scopes', scope]);
  const answer = await submitAction(page, 'createKeyAction', '/dashboard/developers/api-keys', [
    ['name', ''],
    ...scopes,
  ]);
  const key = answer.match(/sk_sandbox_[0-9A-Za-z]{32}/)?.[0] ?? '';
  expect(key, answer).not.toBe('');
  return key;
}

/** Creates a key in Developers → API keys and reads it from the one-time dialog. */
export async function createKeyInDialog(page: Page, scopes?: string[]): Promise<string> {
  await page.goto('/dashboard/developers/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  if (scopes) {
    for (const box of await dialog.getByRole('checkbox').all()) await box.uncheck();
    for (const scope of scopes) await dialog.getByRole('checkbox', { name: scope }).check();
  }
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await reveal.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(key).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);
  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  return key;
}

export type V1Response<T = any> = { status: number; body: T };

/** The merchant's server calling the API with its key. */
export async function v1<T = any>(
  key: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<V1Response<T>> {
  const response = await fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(method === 'POST' ? { 'Idempotency-Key': randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A USD session for 2 × US$15.00 + US$5.00 shipping + US$2.50 tax = US$37.50, returning to the shop. */
export function shopSession(overrides: Record<string, unknown> = {}) {
  return {
    order_reference: `order-${randomUUID().slice(0, 8)}`,
    currency: 'USD',
    items: [{ name: 'Organic cotton T-shirt', quantity: 2, unit_amount: 1500 }],
    shipping_amount: 500,
    tax_amount: 250,
    amount: 3750,
    return_url: `${SHOP}/orders/thanks`,
    cancel_url: `${SHOP}/cart`,
    ...overrides,
  };
}

export async function createSessionWith(key: string, overrides: Record<string, unknown> = {}) {
  const response = await v1<{ id: string; url: string; order_reference: string }>(
    key,
    'POST',
    '/v1/checkout-sessions',
    shopSession(overrides),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** The customer pays by card on the hosted page (in a page of its own) and is sent back to the shop. */
export async function payByCard(page: Page, url: string, cardNumber = '4242 4242 4242 4242'): Promise<void> {
  const customer = await page.context().newPage();
  await shopRoutes(customer);
  await customer.goto(url);
  await customer.getByLabel('Card number').fill(cardNumber);
  await customer.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByLabel('Name on card').fill('Ada Lovelace');
  await customer.getByRole('button', { name: /^Pay / }).click();
  await customer.waitForURL(`${SHOP}/**`);
  await customer.close();
}

/** The page as it is, at desktop and phone sizes: dashboard-<name>-desktop.png and -phone.png. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  // a list still streaming in shows its skeleton; the screenshot is of the page, not of the wait
  await expect(page.locator('.animate-pulse')).toHaveCount(0);
  const before = page.viewportSize();
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `dashboard-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `dashboard-${name}-phone`);
  if (before) await page.setViewportSize(before);
}
