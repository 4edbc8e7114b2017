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
import { DESKTOP, expectAccessible, PHONE } from './support';

// A merchant who authorizes at checkout and captures when the order ships: one order ships in part, so they
// capture part of its authorization; another is abandoned, so they release its hold, and its customer pays it
// again. Each change is confirmed in a dialog that says what will happen, and the list's filter finds both.

/** The customer's card is authorized for a new US$37.50 order (the test helper does what the hosted page does). */
async function authorized(key: string) {
  const session = await createSessionWith(key, { capture_method: 'manual' });
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('requires_capture');
  return { id: paid.body.id as string, orderReference: session.order_reference };
}

async function filterByStatus(page: Page, label: string) {
  await page.goto('/dashboard/payments');
  await page.getByLabel('Status').selectOption({ label });
  await page.waitForURL((url) => url.searchParams.has('status'));
  return page.getByRole('table', { name: 'Payments' });
}

async function expectAccessibleAtBothSizes(page: Page) {
  const before = page.viewportSize();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await expectAccessible(page);
  }
  if (before) await page.setViewportSize(before);
}

test('a merchant captures part of one authorization and cancels another', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Ships Later'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const shipped = await authorized(key);
  const abandoned = await authorized(key);

  // both wait under "Uncaptured"
  let payments = await filterByStatus(page, 'Uncaptured');
  await expect(payments.getByRole('row')).toHaveCount(3);
  await expect(payments).toContainText(shipped.orderReference);
  await expect(payments).toContainText(abandoned.orderReference);

  // the shipped order: its page offers the whole authorization, and says until when it holds
  await page.goto(`/dashboard/payments/${shipped.id}`);
  const panel = page.getByRole('region', { name: 'Capture', exact: true });
  const amount = panel.getByLabel('Amount to capture (USD)');
  await expect(amount).toHaveValue('37.50');
  await expect(page.getByText('Authorization expires')).toBeVisible();
  await expect(page.getByText(/in 7 days, 7 days after it was made/)).toBeVisible();
  // a second tab left open on the same page, to try again later
  const staleTab = await page.context().newPage();
  await staleTab.goto(`/dashboard/payments/${shipped.id}`);

  // part of it shipped: the amount is typed as the merchant writes it, read back, and named before it is taken
  await amount.fill('20,00');
  await expect(panel.getByText('Reads as US$20.00.')).toBeVisible();
  await screenshotBoth(page, 'payment-capture');
  await expectAccessibleAtBothSizes(page);
  await panel.getByRole('button', { name: 'Capture', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Capture US$20.00?' });
  await expect(confirm).toContainText('the other US$17.50 of the hold is released');
  await screenshotBoth(page, 'payment-capture-dialog');
  await expectAccessibleAtBothSizes(page);
  await confirm.getByRole('button', { name: 'Capture US$20.00' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Captured US$20.00.' })).toContainText(
    'The other US$17.50 of the authorization is released to the customer.',
  );
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Succeeded');
  await expect(panel).toContainText('Captured US$20.00 of the US$37.50 authorized; the other US$17.50 was released.');
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText(
    'Captured US$20.00 of US$37.50; US$17.50 released',
  );
  // what can be refunded is what was taken
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('20.00');
  expect((await v1(key, 'GET', `/v1/payments/${shipped.id}`)).body).toMatchObject({
    status: 'succeeded',
    amount_captured: 2000,
  });

  // the tab left open cannot capture it again, and says why
  const stalePanel = staleTab.getByRole('region', { name: 'Capture', exact: true });
  await stalePanel.getByRole('button', { name: 'Capture', exact: true }).click();
  await staleTab
    .getByRole('dialog', { name: 'Capture US$37.50?' })
    .getByRole('button', { name: 'Capture US$37.50' })
    .click();
  await expect(stalePanel.getByRole('alert')).toHaveText(
    'This payment was already captured (US$20.00), from another tab or over the API.',
  );
  await staleTab.close();

  // the abandoned order: its hold is released, after a dialog that says so
  await page.goto(`/dashboard/payments/${abandoned.id}`);
  await page.getByRole('button', { name: 'Cancel authorization' }).click();
  const release = page.getByRole('dialog', { name: 'Cancel this authorization?' });
  await expect(release).toContainText('The hold of US$37.50 on the customer’s card is released and nothing is taken.');
  await expect(release).toContainText('The order is free to be paid again');
  await screenshotBoth(page, 'payment-cancel-dialog');
  await expectAccessible(page);
  await release.getByRole('button', { name: 'Cancel authorization' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Authorization canceled' })).toContainText(
    'the hold of US$37.50 is released, and the order can be paid again.',
  );
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Canceled');
  await expect(page.getByText('By you: the hold was released')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText(
    'Authorization canceled: the hold of US$37.50 was released',
  );
  await expectAccessible(page);

  // the customer comes back and pays the abandoned order after all
  const again = await createSessionWith(key, { order_reference: abandoned.orderReference });
  const repaid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${again.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(repaid.body.status, JSON.stringify(repaid.body)).toBe('succeeded');

  // the list's filters find each where it now is
  payments = await filterByStatus(page, 'Uncaptured');
  await expect(payments).toHaveCount(0);
  await expect(page.getByText('No payments match these filters')).toBeVisible();
  payments = await filterByStatus(page, 'Canceled');
  await expect(payments.getByRole('row')).toHaveCount(2);
  await expect(payments).toContainText(abandoned.orderReference);
  await expectAccessible(page);
  payments = await filterByStatus(page, 'Succeeded');
  await expect(payments.getByRole('row')).toHaveCount(3);
  await expect(payments).toContainText(shipped.orderReference);
});
