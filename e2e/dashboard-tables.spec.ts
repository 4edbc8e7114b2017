import { expect, test, type Page } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import { DESKTOP, expectAccessible, PHONE, setPaymentCreatedAt } from './support';

// A merchant on a 1280 px laptop reads the payments list and Home's recent payments without a table
// running out of its card: the columns that do not fit give way (or the table scrolls inside its card);
// Home's figures, "US$999,990.00" among them, each read on one line.

/** Every table's right edge against the right edge of the card (section) around it, in CSS pixels. */
async function tablesOverflowingTheirCards(page: Page) {
  return page.locator('table').evaluateAll((tables) =>
    tables
      .map((table) => {
        const card = table.closest('section');
        if (!card) return null;
        const tableRight = table.getBoundingClientRect().right;
        const cardRight = card.getBoundingClientRect().right;
        return { label: table.getAttribute('aria-label'), tableRight, cardRight };
      })
      .filter(
        (entry): entry is { label: string | null; tableRight: number; cardRight: number } =>
          entry !== null && entry.tableRight > entry.cardRight + 0.5,
      ),
  );
}

/** Home's figures (the first value of each card) that break over more than one line. */
async function figuresOverOneLine(page: Page) {
  return page
    .locator('dl > div > dd:first-of-type')
    .evaluateAll((values) =>
      values
        .filter((value) => value.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(value).lineHeight))
        .map((value) => value.textContent),
    );
}

test('at 1280 px the payments list and Home’s recent payments stay inside their cards', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signUp(page, newMerchant('Wide Tables'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);

  // the widest rows there are: large amounts, long order references, every method, the longest card
  // brand, a failure, a partial refund, and a payment of last year (its date shows the year)
  const methods = [
    { payment_method: 'card', card_number: '378282246310005' },
    { payment_method: 'usdc' },
    { payment_method: 'interac', outcome: 'approve', currency: 'CAD' },
    { payment_method: 'card', card_number: '4000000000000002' },
  ];
  let refundable: string | null = null;
  for (const [index, { currency = 'USD', ...method }] of methods.entries()) {
    const session = await createSessionWith(key, {
      currency,
      order_reference: `wholesale-order-2026-11-24-${index}-customer-reference-long`,
      items: [{ name: 'Industrial espresso machine', quantity: 1, unit_amount: 99_999_000 - 750 }],
      amount: 99_999_000,
    });
    const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, method);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    if (paid.body.status === 'succeeded') refundable ??= paid.body.id;
    if (index === 0) await setPaymentCreatedAt(paid.body.id, new Date(Date.now() - 400 * 86_400_000));
  }
  const refund = await v1(key, 'POST', '/v1/refund-requests', { payment_id: refundable, amount: 500 });
  expect(refund.status).toBe(201);
  // completed, the payment reads "Partially refunded" with what went back beneath its amount: its widest row
  await expect
    .poll(async () => (await v1(key, 'GET', `/v1/refund-requests/${refund.body.id}`)).body.status, { timeout: 30_000 })
    .toBe('completed');

  await page.goto('/dashboard/payments');
  const payments = page.getByRole('table', { name: 'Payments' });
  await expect(payments.getByRole('row')).toHaveCount(methods.length + 1);
  expect(await tablesOverflowingTheirCards(page)).toEqual([]);
  await expectAccessible(page);
  await screenshotBoth(page, 'payments-wide');

  await page.goto('/dashboard');
  await expect(page.getByRole('table', { name: 'Recent payments' }).getByRole('row')).toHaveCount(methods.length + 1);
  expect(await tablesOverflowingTheirCards(page)).toEqual([]);
  await expect(page.getByText('US$999,990.00').first()).toBeVisible();
  expect(await figuresOverOneLine(page)).toEqual([]);
  await expectAccessible(page);

  // a phone: the table may scroll sideways inside its card, never the page
  await page.setViewportSize(PHONE);
  for (const path of ['/dashboard/payments', '/dashboard']) {
    await page.goto(path);
    await expect(page.locator('table').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    if (path === '/dashboard') expect(await figuresOverOneLine(page)).toEqual([]);
    await expectAccessible(page);
  }
  await page.setViewportSize(DESKTOP);
  await page.goto('/dashboard');
  await screenshotBoth(page, 'home-wide');
});
