import { randomUUID } from 'node:crypto';
import axe, { type Result } from 'axe-core';
import { expect, type Page } from '@playwright/test';
import type pg from 'pg';
import { ensureEmbeddedServer } from '@/lib/db/embedded';
import { withClient } from '@/lib/db/short-client';
import { E2E_API_KEY, E2E_BASE_URL } from '../playwright.config';

// Shared steps of the checkout stories: a merchant's server creating sessions over HTTP with the demo key,
// the merchant's own site answering the customer's return, screenshots, and the accessibility check.

export const MERCHANT_NAME = 'Demo Shop';
/** An approved website of the demo merchant; the browser never really reaches it: shopRoutes answers. */
export const SHOP = 'http://localhost:4000';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

type SessionOverrides = Record<string, unknown>;
export type CheckoutSession = {
  id: string;
  url: string;
  status: string;
  order_reference: string;
  payment_id: string | null;
  [key: string]: unknown;
};

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${E2E_API_KEY}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(method === 'POST' ? { 'Idempotency-Key': randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await api<T>(method, path, body);
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

export function uniqueReference(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/** A USD session: 2 T-shirts at 15.00, shipping 5.00, tax 2.50 → US$37.50. */
export function usdSession(overrides: SessionOverrides = {}) {
  return {
    order_reference: uniqueReference(),
    currency: 'USD',
    items: [{ name: 'Organic cotton T-shirt', quantity: 2, unit_amount: 1500 }],
    shipping_amount: 500,
    tax_amount: 250,
    amount: 3750,
    return_url: `${SHOP}/orders/thanks?ref=42`,
    cancel_url: `${SHOP}/cart`,
    ...overrides,
  };
}

/** A CAD session: a mug at 24.00, shipping 9.90, tax 15.00 → CA$48.90. */
export function cadSession(overrides: SessionOverrides = {}) {
  return {
    order_reference: uniqueReference(),
    currency: 'CAD',
    items: [{ name: 'Maple stoneware mug', quantity: 1, unit_amount: 2400 }],
    shipping_amount: 990,
    tax_amount: 1500,
    amount: 4890,
    return_url: `${SHOP}/orders/thanks`,
    cancel_url: `${SHOP}/cart`,
    ...overrides,
  };
}

export const createSession = (body: SessionOverrides = usdSession()) =>
  ok<CheckoutSession>('POST', '/v1/checkout-sessions', body);
export const getSession = (id: string) => ok<CheckoutSession>('GET', `/v1/checkout-sessions/${id}`);
export const expireSession = (id: string) => ok<CheckoutSession>('POST', `/v1/checkout-sessions/${id}/expire`);
export const payWithTestHelper = (id: string, body: Record<string, unknown>) =>
  ok<{ id: string; status: string }>('POST', `/v1/test-helpers/checkout-sessions/${id}/pay`, body);

export type Payment = {
  id: string;
  status: string;
  payment_method: string;
  payment_method_details: Record<string, Record<string, unknown>>;
  failure_code: string | null;
};
export async function paymentsOf(orderReference: string): Promise<Payment[]> {
  const list = await ok<{ data: Payment[] }>(
    'GET',
    `/v1/payments?order_reference=${encodeURIComponent(orderReference)}&limit=100`,
  );
  return list.data;
}

/** The right-hand panel: the payment form, or what replaced it. */
export const paymentPanel = (page: Page) => page.getByRole('region', { name: 'Payment' });

/** The customer's return to the merchant's site, answered here: the story ends when the browser arrives. */
export async function shopRoutes(page: Page): Promise<void> {
  await page.route(`${SHOP}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Demo Shop</title><h1>Back at Demo Shop</h1>',
    }),
  );
}

/**
 * Moves a session's expiry to `secondsFromNow`, straight in the e2e database: the only way to watch a
 * session run out of time without waiting 30 minutes. (Expiring through the API is the other way, and the
 * page must look the same for both.)
 */
export async function setExpiresIn(sessionId: string, secondsFromNow: number): Promise<void> {
  await inE2eDatabase((client) =>
    client.query(`UPDATE checkout_sessions SET expires_at = now() + make_interval(secs => $2) WHERE id = $1`, [
      sessionId,
      secondsFromNow,
    ]),
  );
}

/**
 * Moves a payment's created_at, straight in the e2e database: the only way to show a payment made on
 * another day (or at 02:00 UTC) without waiting for that day to come.
 */
export async function setPaymentCreatedAt(paymentId: string, at: Date): Promise<void> {
  await inE2eDatabase((client) => client.query(`UPDATE payments SET created_at = $2 WHERE id = $1`, [paymentId, at]));
}

/** `work` on a connection of its own to the e2e server's database. */
async function inE2eDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const server = await ensureEmbeddedServer(process.env.E2E_DATA_DIR ?? 'data/e2e', () => {});
  return withClient({ connectionString: server.adminUrl('sandbox') }, work);
}

/**
 * Full-page screenshots, to be looked at: test-results/screenshots/, or SCREENSHOT_DIR (every Playwright run
 * empties test-results/ when it starts, so a run that shares the folder can take them away).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `${process.env.SCREENSHOT_DIR ?? 'test-results/screenshots'}/${name}.png`,
    fullPage: true,
    animations: 'disabled',
  });
}

/**
 * The violations axe finds on the page as it is now under the given rule tags: every rule of those tags on
 * every element, reporting violations only (it is spared listing each element that passed, thousands on /docs,
 * most of its time on a long page; violations keep every element). axe goes into the page once per document
 * and stays there for the page's next scans: @axe-core/playwright's builder injected its 580 kB twice on every
 * scan, which was more than half of a scan's time on a dashboard page (docs/testing.md).
 */
async function axeViolations(page: Page, tags: string[]): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(
    (values) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values },
        resultTypes: ['violations'],
      }),
    tags,
  );
  return results.violations;
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  const severe = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(describeViolation);
  expect(severe, 'serious or critical accessibility violations').toEqual([]);
}

// The stricter check accessibility.spec.ts holds every page to: WCAG 2.2 AA (target sizes) on top of the
// usual tags, no serious or critical finding, and none at all of these rules, whatever axe calls their impact
// (headings that skip a level, content outside every landmark, a scrolling block the keyboard cannot reach,
// targets under 24 px).
const STRICT_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const ALWAYS_REPORTED_RULES = new Set([
  'heading-order',
  'region',
  'landmark-one-main',
  'page-has-heading-one',
  'scrollable-region-focusable',
  'target-size',
]);

/** What the stricter check finds on the page as it is now, one line per finding. */
export async function strictAxeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page, STRICT_TAGS))
    .filter(
      (violation) =>
        violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS_REPORTED_RULES.has(violation.id),
    )
    .map(describeViolation);
}

function describeViolation(violation: Result): string {
  return `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`;
}
