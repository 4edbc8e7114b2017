import { expect, test, type Page } from '@playwright/test';
import { ERROR_CODES } from '@/lib/openapi/error-codes';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { TEST_CARDS } from '@/lib/payments/cards';
import { E2E_BASE_URL } from '../playwright.config';
import { DESKTOP, PHONE, strictAxeFindings } from './support';

// A developer reads the API reference at /docs, on a laptop and on a phone: every endpoint of the route
// table is there, nothing loads from another origin, and nothing serious turns up in the accessibility check.

/** What the viewport shows (the full page is very long), for people to look at. */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({
    path: `${process.env.SCREENSHOT_DIR ?? 'test-results/screenshots'}/${name}.png`,
    animations: 'disabled',
  });
}

/** Console complaints about the Content-Security-Policy: the page's own scripts and styles must all run under it. */
function recordCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

test('a developer finds every endpoint, the error table and the test cards on /docs', async ({ page }) => {
  // the whole reference is one long page: slow on two cores
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  const requests = recordRequests(page);
  const cspViolations = recordCspViolations(page);
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();

  const sidebar = page.getByRole('navigation', { name: 'Documentation' });
  for (const operation of API_OPERATIONS) {
    const article = page.locator(`article#${operation.operationId}`);
    await expect(article.getByRole('heading', { level: 3, name: operation.summary })).toBeAttached();
    await expect(article.getByText(operation.path, { exact: true }).first()).toBeAttached();
    await expect(sidebar.locator(`a[href="#${operation.operationId}"]`)).toBeVisible();
    // what it answers, not only what it takes
    const example = article.getByRole('figure').filter({ hasText: `Example response · ${operation.success.status}` });
    // JSON, or for the event stream its messages (a ping, then an event's id, type and JSON)
    await expect(example.locator('pre')).toHaveText(
      operation.success.contentType
        ? /^: ping\s+id: evt_\w+\s+event: [\w.]+\s+data: \{"[\s\S]+\}\s*$/
        : /^\{\s*"[\s\S]+\}$/,
    );
  }
  const errorTable = page.getByRole('region', { name: 'Error codes', exact: true });
  for (const row of ERROR_CODES) await expect(errorTable.getByText(row.code, { exact: true })).toBeAttached();
  const cards = page.getByRole('region', { name: 'Test cards', exact: true });
  for (const card of TEST_CARDS)
    await expect(cards.getByText(card.number.replace(/(\d{4})(?=\d)/g, '$1 '))).toBeAttached();
  await expect(page.getByRole('figure').filter({ hasText: 'app/api/webhooks/route.ts' })).toContainText(
    'webhook.verify(body',
  );

  // axe at this width: accessibility.spec.ts. No full-page shot of a page this long: it took 7 s of both
  // cores on a quiet machine, for what the shots of its parts below show
  await viewportShot(page, 'docs-desktop-top');

  await sidebar.getByRole('link', { name: /Create a refund request/ }).click();
  await expect(page).toHaveURL(/#createRefundRequest$/);
  await expect(page.locator('#createRefundRequest-title')).toBeInViewport();
  await viewportShot(page, 'docs-desktop-operation');
  await page.locator('#webhooks').scrollIntoViewIfNeeded();
  await viewportShot(page, 'docs-desktop-webhooks');
  await page.locator('#object-Payment').scrollIntoViewIfNeeded();
  await viewportShot(page, 'docs-desktop-objects');

  expect(
    requests.filter((url) => !url.startsWith(E2E_BASE_URL) && !url.startsWith('data:')),
    'no CDN or other origin',
  ).toEqual([]);
  expect(cspViolations).toEqual([]);
});

test('on a phone the reference fits the screen and its contents open from a menu', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await page.goto('/docs');
  await expect(page.getByRole('navigation', { name: 'Documentation' })).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await viewportShot(page, 'docs-phone-top');

  await page.getByText('Contents', { exact: true }).click();
  const contents = page.getByRole('navigation', { name: 'Contents' });
  await expect(contents).toBeVisible();
  await viewportShot(page, 'docs-phone-contents');
  await contents.getByRole('link', { name: /Create a checkout session/ }).click();
  await expect(page.locator('#createCheckoutSession-title')).toBeInViewport();
  await viewportShot(page, 'docs-phone-operation');
  await page.locator('#errors').scrollIntoViewIfNeeded();
  await viewportShot(page, 'docs-phone-errors');
  // axe at this width, with the contents menu open, under the rules accessibility.spec.ts holds every page to
  expect(await strictAxeFindings(page)).toEqual([]);
});
