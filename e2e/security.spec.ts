import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { E2E_API_KEY, E2E_BASE_URL } from '../playwright.config';
import {
  approveWebsite,
  createKey,
  newMerchant,
  payByCard,
  shopSession,
  signIn,
  signUp,
  v1,
  type Merchant,
} from './dashboard-support';
import { SHOP, shopRoutes } from './support';
import { freePort } from '@/lib/core/free-port';

// What a browser is told and where it is sent. Every page of the app sends a Content-Security-Policy that
// forbids framing, X-Frame-Options, Referrer-Policy and nosniff, and HSTS when the request came over
// https; dashboard cookies are HttpOnly, SameSite=Lax and, behind https, Secure; and nobody can bounce a
// customer or a merchant off-site through return_url, cancel_url, a payment link's after-payment URL,
// or the sign-in page's callbackUrl, however they tamper with the address or the form.

const EVIL = 'https://evil.example.com';

// --- every page -------------------------------------------------------------------------------------------

/** Every page of the app, from app/**\/page.tsx: a new page is in this test the day it is added. */
function pageRoutes(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === 'page.tsx') {
        const route = path
          .relative('app', dir)
          .split(path.sep)
          .filter((segment) => segment && !/^\(.*\)$/.test(segment))
          .join('/');
        found.push(`/${route}`);
      }
    }
  };
  walk('app');
  return found.sort();
}

type Objects = {
  sessionId: string;
  paymentId: string;
  linkId: string;
  endpointId: string;
  eventId: string;
  logId: string;
  publicSessionId: string;
  publicLinkId: string;
};

/** The address of a route, its [id] filled with an object the signed-in merchant (or the demo merchant, for public pages) owns. */
function addressOf(route: string, ids: Objects): string {
  const fill: Record<string, string> = {
    // served at /docs, which proxy.ts rewrites to the edition of this deployment's settings
    '/docs/[edition]': '/docs',
    '/checkout/[id]': `/checkout/${ids.publicSessionId}`,
    '/pay/[id]': `/pay/${ids.publicLinkId}`,
    '/pay/[id]/receipt': `/pay/${ids.publicLinkId}/receipt`,
    '/dashboard/payments/[id]': `/dashboard/payments/${ids.paymentId}`,
    '/dashboard/checkout-sessions/[id]': `/dashboard/checkout-sessions/${ids.sessionId}`,
    '/dashboard/payment-links/[id]': `/dashboard/payment-links/${ids.linkId}`,
    '/dashboard/developers/webhooks/[id]': `/dashboard/developers/webhooks/${ids.endpointId}`,
    '/dashboard/developers/events/[id]': `/dashboard/developers/events/${ids.eventId}`,
    '/dashboard/developers/logs/[id]': `/dashboard/developers/logs/${ids.logId}`,
  };
  if (route.includes('[')) {
    if (!fill[route]) throw new Error(`security.spec.ts: give ${route} an object to show`);
    return fill[route];
  }
  return route;
}

async function demoApi<T = any>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const response = await fetch(`${E2E_BASE_URL}${apiPath}`, {
    method,
    headers: {
      Authorization: `Bearer ${E2E_API_KEY}`,
      'Content-Type': 'application/json',
      ...(method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${apiPath}`).toBeLessThan(300);
  return (await response.json()) as T;
}

let context: BrowserContext;
let merchantPage: Page;
let merchant: Merchant;
let ids: Objects;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // a merchant with one of everything, signed in: the dashboard's detail pages need something to show
  context = await browser.newContext();
  merchantPage = await context.newPage();
  merchant = newMerchant('Headers');
  await signUp(merchantPage, merchant);
  await approveWebsite(merchantPage, new URL(SHOP).host);
  const key = await createKey(merchantPage);
  const session = (await v1(key, 'POST', '/v1/checkout-sessions', shopSession())).body;
  await payByCard(merchantPage, session.url);
  const payment = (await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`)).body.payment_id as string;
  const link = (await v1(key, 'POST', '/v1/payment-links', { name: 'Gift card', amount: 2500, currency: 'USD' })).body;
  const endpoint = (
    await v1(key, 'POST', '/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/never',
      events: ['refund.failed'],
    })
  ).body;
  const event = (await v1(key, 'GET', '/v1/events?limit=1')).body.data[0];
  const publicSession = await demoApi('POST', '/v1/checkout-sessions', shopSession());
  const publicLink = await demoApi('POST', '/v1/payment-links', { name: 'Public link', amount: 1000, currency: 'USD' });
  // a logged request's id is the dashboard's own (the API never shows it): read it from Logs, once written
  let logId = '';
  await expect(async () => {
    await merchantPage.goto('/dashboard/developers/logs');
    const href = await merchantPage
      .getByRole('table', { name: 'API requests' })
      .getByRole('link')
      .first()
      .getAttribute('href', { timeout: 1000 });
    logId = href!.split('/').pop()!;
  }).toPass({ timeout: 10_000 });
  ids = {
    sessionId: session.id,
    paymentId: payment,
    linkId: link.id,
    endpointId: endpoint.id,
    eventId: event.id,
    logId,
    publicSessionId: publicSession.id,
    publicLinkId: publicLink.id,
  };
});

test.afterAll(async () => {
  await context?.close();
});

function securityHeaderProblems(headers: Record<string, string>, overHttps: boolean): string[] {
  const problems: string[] = [];
  const csp = headers['content-security-policy'] ?? '';
  for (const directive of [
    "frame-ancestors 'none'",
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ]) {
    if (!csp.includes(directive)) problems.push(`CSP without ${directive}`);
  }
  if (/unsafe-eval/.test(csp)) problems.push("CSP allows 'unsafe-eval'");
  if (headers['x-frame-options'] !== 'DENY') problems.push(`X-Frame-Options ${headers['x-frame-options']}`);
  if (headers['x-content-type-options'] !== 'nosniff')
    problems.push(`X-Content-Type-Options ${headers['x-content-type-options']}`);
  if (!['strict-origin-when-cross-origin', 'no-referrer', 'same-origin'].includes(headers['referrer-policy']))
    problems.push(`Referrer-Policy ${headers['referrer-policy']}`);
  if (headers['x-powered-by']) problems.push('X-Powered-By is sent');
  const hsts = headers['strict-transport-security'];
  if (overHttps) {
    const maxAge = Number(/max-age=(\d+)/.exec(hsts ?? '')?.[1] ?? 0);
    if (maxAge < 31_536_000) problems.push(`HSTS ${hsts}`);
  } else if (hsts) {
    problems.push('HSTS over plain http');
  }
  return problems;
}

test('every page sends CSP with frame-ancestors none, X-Frame-Options, Referrer-Policy and nosniff, and HSTS only behind https', async () => {
  const routes = pageRoutes();
  expect(routes).toEqual(
    expect.arrayContaining([
      '/',
      '/checkout/[id]',
      '/pay/[id]',
      '/pay/[id]/receipt',
      '/login',
      '/signup',
      '/docs/[edition]',
      '/dashboard',
      '/dashboard/settings',
    ]),
  );
  // and the pages that are not pages: not found, the API, a static asset, the auth endpoints
  const addresses = [
    ...routes.map((route) => addressOf(route, ids)),
    '/no-such-page',
    '/checkout/cs_000000000000000000000000',
    '/v1/payments',
    '/api/auth/csrf',
    '/favicon.ico',
  ];
  const problems: string[] = [];
  for (const address of addresses) {
    for (const overHttps of [false, true]) {
      const response = await merchantPage.request.get(address, {
        maxRedirects: 0,
        headers: overHttps ? { 'X-Forwarded-Proto': 'https' } : {},
      });
      if (response.status() >= 500) problems.push(`${address}: ${response.status()}`);
      for (const problem of securityHeaderProblems(response.headers(), overHttps))
        problems.push(`${address}${overHttps ? ' (https)' : ''}: ${problem}`);
    }
  }
  expect(problems).toEqual([]);
});

test('a page of ours cannot be framed by another site', async ({ page }) => {
  // another site on this machine (a real local server: Chrome refuses frames from a page it believes
  // public into a local address anyway, which would prove nothing about our headers)
  const site = http.createServer((request, response) => {
    response.setHeader('Content-Type', 'text/html');
    if (request.url === '/inner') return response.end('<!doctype html><button>Pay US$1.00</button>');
    response.end(
      `<!doctype html><iframe id="ours" src="${E2E_BASE_URL}/checkout/${ids.publicSessionId}"></iframe><iframe id="theirs" src="/inner"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    // 'load' waits for both frames, blocked or not
    await page.goto(`http://127.0.0.1:${(site.address() as net.AddressInfo).port}/framed`, { waitUntil: 'load' });
    // frames do render here: the site's own one shows its button
    await expect(page.frameLocator('#theirs').getByRole('button', { name: /^Pay / })).toHaveCount(1);
    await expect(page.frameLocator('#ours').getByRole('button', { name: /^Pay / })).toHaveCount(0);
  } finally {
    site.close();
  }
});

// --- cookies ---------------------------------------------------------------------------------------------

test('behind https every dashboard cookie is Secure, HttpOnly and SameSite=Lax, with a __Secure- or __Host- name', async () => {
  test.setTimeout(90_000);
  // the same build and database, configured as it is deployed behind a TLS-terminating proxy
  const port = await freePort();
  const server: ChildProcess = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        ...process.env,
        DATA_DIR: process.env.E2E_DATA_DIR ?? 'data/e2e',
        APP_URL: 'https://pay.example.test',
        NEXTAUTH_URL: 'https://pay.example.test',
        WORKER: 'off',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`${base}/api/auth/csrf`)
        .then((r) => r.ok)
        .catch(() => false))
    ) {
      if (Date.now() > deadline) throw new Error('the https-configured server did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const https = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'pay.example.test' };
    const csrf = await fetch(`${base}/api/auth/csrf`, { headers: https });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookies = csrf.headers.getSetCookie();
    const signInResponse = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: {
        ...https,
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: csrfCookies.map((line) => line.split(';')[0]).join('; '),
      },
      body: new URLSearchParams({
        csrfToken,
        email: merchant.email,
        password: merchant.password,
        callbackUrl: 'https://pay.example.test/dashboard',
        json: 'true',
      }),
      redirect: 'manual',
    });
    const cookies = [...csrfCookies, ...signInResponse.headers.getSetCookie()];
    const named = (name: string) => cookies.find((line) => line.split('=')[0] === name);
    for (const name of [
      '__Host-next-auth.csrf-token',
      '__Secure-next-auth.callback-url',
      '__Secure-next-auth.session-token',
    ]) {
      const line = named(name);
      expect(line, `${name} in ${cookies.map((one) => one.split('=')[0])}`).toBeDefined();
      expect(line).toMatch(/;\s*Secure/i);
      expect(line).toMatch(/;\s*HttpOnly/i);
      expect(line).toMatch(/;\s*SameSite=Lax/i);
    }
    // and none is set without those flags
    expect(cookies.filter((line) => !/;\s*Secure/i.test(line))).toEqual([]);
  } finally {
    server.kill('SIGTERM');
  }
});

test('over plain http the sign-in cookies are HttpOnly and SameSite=Lax (Secure would stop the browser sending them)', async () => {
  const cookies = (await context.cookies()).filter((cookie) => cookie.name.includes('next-auth'));
  expect(cookies.map((cookie) => cookie.name)).toContain('next-auth.session-token');
  for (const cookie of cookies)
    expect(cookie, cookie.name).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
});

// --- no open redirect -------------------------------------------------------------------------------------

const OFF_SITE = [
  EVIL,
  `${EVIL}/dashboard`,
  '//evil.example.com/dashboard',
  '/\\evil.example.com/dashboard',
  'https:evil.example.com',
  '/dashboard/..//evil.example.com',
  '/dashboard//evil.example.com',
  '/dashboard/%2F%2Fevil.example.com',
  'javascript:alert(1)',
  `${E2E_BASE_URL}.evil.example.com/dashboard`,
  `${E2E_BASE_URL}@evil.example.com/dashboard`,
  '/dashboard\r\nLocation: https://evil.example.com',
];

/** On our origin, and not a path a browser would read as another host (//evil, /\\evil). */
const sameOrigin = (location: string | undefined) =>
  location !== undefined &&
  new URL(location, E2E_BASE_URL).origin === new URL(E2E_BASE_URL).origin &&
  !/^\/[/\\]/.test(new URL(location, E2E_BASE_URL).pathname);

/** Links, forms and refreshes on the page that lead off-site (the address itself is echoed in the page's router state, harmlessly). */
async function offSiteExits(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...[...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
      ...[...document.querySelectorAll('form[action]')].map((form) => (form as HTMLFormElement).action),
      ...[...document.querySelectorAll('meta[http-equiv="refresh" i]')].map(
        (meta) => meta.getAttribute('content') ?? '',
      ),
    ].filter((target) => target.includes('evil.example.com')),
  );
}

test('the sign-in page sends a signed-in merchant only to our own dashboard, whatever callbackUrl says', async () => {
  for (const target of OFF_SITE) {
    const response = await merchantPage.request.get(`/login?callbackUrl=${encodeURIComponent(target)}`, {
      maxRedirects: 0,
    });
    expect(response.status(), target).toBe(307);
    const location = response.headers().location;
    expect(sameOrigin(location), `${target} → ${location}`).toBe(true);
    expect(new URL(location, E2E_BASE_URL).pathname, target).toMatch(/^\/dashboard/);
  }
});

test('next-auth keeps callbackUrl on our origin: on sign-in, on the sign-in redirect, and on sign-out', async ({
  request,
}) => {
  for (const target of [
    EVIL,
    '//evil.example.com',
    '/\\evil.example.com',
    `${E2E_BASE_URL}.evil.example.com`,
    `${E2E_BASE_URL}@evil.example.com`,
    'javascript:alert(1)',
  ]) {
    const signinPage = await request.get(`/api/auth/signin?callbackUrl=${encodeURIComponent(target)}`, {
      maxRedirects: 0,
    });
    const callbackCookie = signinPage
      .headersArray()
      .find((header) => header.name.toLowerCase() === 'set-cookie' && header.value.includes('callback-url='));
    if (callbackCookie)
      expect(sameOrigin(decodeURIComponent(callbackCookie.value.split('=')[1].split(';')[0])), target).toBe(true);
    expect(sameOrigin(signinPage.headers().location ?? '/'), target).toBe(true);

    const { csrfToken } = await (await request.get('/api/auth/csrf')).json();
    const signedIn = await request.post('/api/auth/callback/credentials', {
      form: { csrfToken, email: merchant.email, password: merchant.password, callbackUrl: target, json: 'true' },
    });
    expect(signedIn.status(), target).toBe(200);
    expect(sameOrigin((await signedIn.json()).url), target).toBe(true);
    const signedOut = await request.post('/api/auth/signout', {
      form: { csrfToken, callbackUrl: target, json: 'true' },
    });
    expect(signedOut.status(), target).toBe(200);
    expect(sameOrigin((await signedOut.json()).url), target).toBe(true);
  }
});

test('signing in from a link with an off-site callbackUrl lands on our dashboard', async ({ page }) => {
  // were the form to send the browser there, it would arrive (and the test would see it)
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Phished</h1>' }));
  await page.goto(`/login?callbackUrl=${encodeURIComponent(`${EVIL}/dashboard/payments`)}`);
  await page.getByLabel('E-mail').fill(merchant.email);
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard**');
  expect(new URL(page.url()).origin).toBe(E2E_BASE_URL);
});

test('a dashboard change posted from another site is refused and changes nothing (server actions check the origin)', async () => {
  const page = merchantPage;
  // the callbackUrl test signed this merchant out, which ends every session of theirs
  await signIn(page, merchant);
  await page.goto('/dashboard/settings');
  const nameField = page.getByRole('textbox', { name: 'Business name' });
  // the merchant's own save, captured as the browser sends it
  const sent = page.waitForRequest((request) => request.method() === 'POST' && 'next-action' in request.headers());
  await nameField.fill('Renamed by its owner');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const action = await sent;
  await expect(page.getByRole('status').filter({ hasText: /saved/i })).toBeVisible();

  // the same request with the merchant's cookies, once as a page on another site would send it (the
  // browser names that site in Origin), and once from our own origin as the control that the replay works
  const replay = (origin: string, name: string) => {
    const { host: _host, 'content-length': _length, ...headers } = action.headers();
    return page.request.post(action.url(), {
      headers: { ...headers, origin },
      data: action.postDataBuffer()!.toString('utf8').replace('Renamed by its owner', name),
      maxRedirects: 0,
    });
  };
  const forged = await replay(EVIL, 'Renamed from evil.example.com');
  expect(forged.ok()).toBe(false);
  await page.reload();
  await expect(nameField).toHaveValue('Renamed by its owner');

  expect((await replay(E2E_BASE_URL, 'Renamed by a replay from our origin')).ok()).toBe(true);
  await page.reload();
  await expect(nameField).toHaveValue('Renamed by a replay from our origin');
});

test('the hosted checkout returns the customer to the stored return_url, whatever its address or its form says', async ({
  page,
}) => {
  await shopRoutes(page);
  const session = await demoApi('POST', '/v1/checkout-sessions', shopSession());
  // an address dressed up with redirect parameters
  await page.goto(
    `/checkout/${session.id}?return_url=${encodeURIComponent(EVIL)}&cancel_url=${encodeURIComponent(EVIL)}&redirect=${encodeURIComponent(EVIL)}&next=${encodeURIComponent(EVIL)}`,
  );
  expect(await offSiteExits(page)).toEqual([]);
  await expect(page.getByRole('link', { name: /Back to|Cancel/ }).first()).toHaveAttribute('href', `${SHOP}/cart`);

  // a form tampered with on its way: the server refuses a field the page never sends, and pays nothing
  await page.route(`**/checkout/${session.id}*`, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || !request.headers()['next-action']) return route.continue();
    const [id, form] = JSON.parse(request.postData() ?? '[]');
    return route.continue({ postData: JSON.stringify([id, { ...form, returnUrl: EVIL, return_url: EVIL }]) });
  });
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByText('nothing was paid')).toBeVisible();
  expect(new URL(page.url()).origin).toBe(E2E_BASE_URL);
  expect((await demoApi('GET', `/v1/checkout-sessions/${session.id}`)).status).toBe('open');

  // paid for real, the customer lands where the merchant said, and only there
  await page.unroute(`**/checkout/${session.id}*`);
  const landing = page.waitForURL(`${SHOP}/**`);
  await page.getByRole('button', { name: /^Pay / }).click();
  await landing;
  const landed = new URL(page.url());
  expect(`${landed.origin}${landed.pathname}`).toBe(`${SHOP}/orders/thanks`);
  expect(landed.searchParams.get('session_id')).toBe(session.id);
});

test('a payment link sends the customer to its stored after-payment URL, or to our own receipt, never to one in the address', async ({
  page,
}) => {
  await shopRoutes(page);
  const withUrl = await demoApi('POST', '/v1/payment-links', {
    name: 'Gift card',
    amount: 1500,
    currency: 'USD',
    payment_methods: ['card'],
    after_payment_url: `${SHOP}/gift/thanks`,
  });
  const withoutUrl = await demoApi('POST', '/v1/payment-links', {
    name: 'Donation',
    amount: 500,
    currency: 'USD',
    payment_methods: ['card'],
  });

  for (const [link, expected] of [
    [withUrl, `${SHOP}/gift/thanks`],
    [withoutUrl, `${E2E_BASE_URL}/pay/${withoutUrl.id}/receipt`],
  ] as const) {
    await page.goto(
      `/pay/${link.id}?after_payment_url=${encodeURIComponent(EVIL)}&return_url=${encodeURIComponent(EVIL)}&next=${encodeURIComponent(EVIL)}`,
    );
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/checkout\/cs_/);
    expect(await offSiteExits(page)).toEqual([]);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    const landing = page.waitForURL((url) => url.href.startsWith(expected));
    await page.getByRole('button', { name: /^Pay / }).click();
    await landing;
    expect(new URL(page.url()).searchParams.get('session_id')).toMatch(/^cs_/);
  }

  // the receipt page itself redirects nowhere, whatever is added to its address
  const receiptAddress = `/pay/${withoutUrl.id}/receipt?session_id=cs_000000000000000000000000&next=${encodeURIComponent(EVIL)}&redirect=${encodeURIComponent(EVIL)}`;
  const receipt = await page.request.get(receiptAddress, { maxRedirects: 0 });
  expect(receipt.status()).toBe(200);
  expect(receipt.headers().location).toBeUndefined();
  await page.goto(receiptAddress);
  await page.waitForTimeout(500);
  expect(page.url()).toBe(`${E2E_BASE_URL}${receiptAddress}`);
  expect(await offSiteExits(page)).toEqual([]);
});
