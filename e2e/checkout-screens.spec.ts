import { expect, test, type Page } from '@playwright/test';
import {
  cadSession,
  createSession,
  DESKTOP,
  expectAccessible,
  expireSession,
  paymentPanel,
  payWithTestHelper,
  PHONE,
  screenshot,
  setExpiresIn,
  SHOP,
  shopRoutes,
  uniqueReference,
  usdSession,
} from './support';

// Every state of the hosted checkout at phone and desktop widths: a screenshot for people to look at
// (test-results/screenshots/) and an automated accessibility check that must find nothing serious.

async function capture(page: Page, name: string) {
  await screenshot(page, name);
  await expectAccessible(page);
}

/** The page's own scripts and styles must all run under its Content-Security-Policy. */
function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Holds the payment's server action back until the returned function is called, so the in-progress button can be seen. */
async function holdPayments(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/checkout/**', async (route) => {
    if (route.request().method() === 'POST') await released;
    await route.fallback();
  });
  return release;
}

/**
 * The shop answers the customer's return (1.5 s after "Payment received") with 204 No Content, so the
 * browser stays on the confirmation however long its screenshot takes; returns where the page sent them.
 */
async function stayOnReturn(page: Page): Promise<string[]> {
  const returns: string[] = [];
  await page.route(`${SHOP}/**`, (route) => {
    returns.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  return returns;
}

for (const [width, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test.describe(`at ${width} width`, () => {
    test.use({ viewport });

    test('card: empty, wrong, declined, in progress, paid', async ({ page }) => {
      const cspViolations = collectCspViolations(page);
      await shopRoutes(page);
      const session = await createSession(
        usdSession({
          items: [
            { name: 'Organic cotton T-shirt', quantity: 2, unit_amount: 1500 },
            {
              name: 'Canvas tote bag with a rather long product name that has to wrap on a phone',
              quantity: 1,
              unit_amount: 2200,
            },
          ],
          amount: 5950,
        }),
      );
      await page.goto(session.url);
      await capture(page, `${width}-01-card-open`);

      if (width === 'phone') {
        await page.getByRole('button', { name: /Show order summary/ }).click();
        await expect(page.locator('#order-summary')).toBeVisible();
        await capture(page, `${width}-02-summary-open`);
      }

      await page.getByRole('button', { name: 'Pay US$59.50' }).click();
      await capture(page, `${width}-03-card-errors`);

      await page.getByRole('button', { name: 'Use test card 4000 0000 0000 0002' }).click();
      await page.getByRole('button', { name: 'Pay US$59.50' }).click();
      await expect(paymentPanel(page).getByRole('alert')).toBeVisible();
      await capture(page, `${width}-04-card-declined`);

      const releasePayment = await holdPayments(page);
      const returns = await stayOnReturn(page);
      await page.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' }).click();
      await page.getByRole('button', { name: 'Pay US$59.50' }).click();
      const progress = page.getByRole('button', { name: 'Processing…' });
      await expect(progress).toBeDisabled();
      await screenshot(page, `${width}-05-card-processing`);
      releasePayment();

      await expect(page.getByRole('status')).toContainText('Payment received');
      await capture(page, `${width}-06-paid`);
      // and then the page sent the customer back to the shop, with the session
      await expect.poll(() => returns.length).toBe(1);
      expect(returns[0]).toContain(`${SHOP}/orders/thanks?ref=42`);
      expect(returns[0]).toContain(session.id);
      expect(cspViolations).toEqual([]);
    });

    test('USDC and Interac', async ({ page }) => {
      const cspViolations = collectCspViolations(page);
      const usd = await createSession(usdSession());
      await page.goto(usd.url);
      await page.getByRole('tab', { name: 'USDC' }).click();
      await capture(page, `${width}-07-usdc`);

      const cad = await createSession(cadSession());
      await page.goto(cad.url);
      await page.getByRole('tab', { name: 'Interac' }).click();
      await capture(page, `${width}-08-interac`);
      await page.getByLabel('E-mail').fill('marie.tremblay@example.ca');
      await page.getByLabel('Bank').selectOption('TD Canada Trust');
      await page.getByRole('button', { name: 'Decline' }).click();
      await expect(paymentPanel(page).getByRole('alert')).toBeVisible();
      await capture(page, `${width}-09-interac-declined`);
      expect(cspViolations).toEqual([]);
    });

    test('closing time, closed states and the 404 page', async ({ page }) => {
      const soon = await createSession(usdSession());
      await setExpiresIn(soon.id, 4 * 60 + 30);
      await page.goto(soon.url);
      await expect(page.getByRole('timer')).toHaveText(/Expires in 4:/);
      await capture(page, `${width}-10-expiring-soon`);

      const expired = await createSession(usdSession());
      await expireSession(expired.id);
      await page.goto(expired.url);
      await capture(page, `${width}-11-expired`);

      const complete = await createSession(usdSession());
      await payWithTestHelper(complete.id, { payment_method: 'card', card_number: '4242424242424242' });
      await page.goto(complete.url);
      await capture(page, `${width}-12-complete`);

      const order_reference = uniqueReference('screens');
      const paidElsewhere = await createSession(usdSession({ order_reference }));
      const other = await createSession(usdSession({ order_reference }));
      await payWithTestHelper(other.id, { payment_method: 'usdc' });
      await page.goto(paidElsewhere.url);
      await capture(page, `${width}-13-order-paid`);

      await page.goto('/checkout/cs_000000000000000000000000');
      await capture(page, `${width}-14-not-found`);
    });
  });
}
