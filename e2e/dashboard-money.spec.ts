import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, expectAccessible, PHONE, screenshot } from './support';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';

// Pages that tell the truth where money moves: settings show what was saved, refunds change
// on screen as the provider finishes them, refunded payments say so, money moves only after a dialog that
// names the amount and the payment, a payment's timeline is its own, and Decline is told from Cancel.

/** A merchant signed up, with the shop approved and a key for their server. */
async function merchantWithKey(page: Page, label: string): Promise<string> {
  await signUp(page, newMerchant(label));
  await approveWebsite(page, 'localhost:4000');
  return createKey(page);
}

/** The customer pays a new US$37.50 session by card (the test helper does what the hosted page does). */
async function paidPayment(
  key: string,
  card = '4242424242424242',
): Promise<{ id: string; orderReference: string; sessionId: string }> {
  const session = await createSessionWith(key);
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: card,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { id: paid.body.id, orderReference: session.order_reference, sessionId: session.id };
}

async function refundOverApi(key: string, paymentId: string, amount: number) {
  const refund = await v1(key, 'POST', '/v1/refund-requests', { payment_id: paymentId, amount });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  return refund.body as { id: string };
}

async function refundCompleted(key: string, refundId: string) {
  await expect
    .poll(async () => (await v1(key, 'GET', `/v1/refund-requests/${refundId}`)).body.status, { timeout: 15_000 })
    .toBe('completed');
}

/** No serious accessibility finding at desktop and at phone size; the page is left at its size before. */
async function expectAccessibleAtBothSizes(page: Page) {
  const before = page.viewportSize();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await expectAccessible(page);
  }
  if (before) await page.setViewportSize(before);
}

async function usePolicy(page: Page, policy: 'Automatic' | 'Manual') {
  await page.goto('/dashboard/settings');
  await page.getByRole('radio', { name: new RegExp(`^${policy}`) }).check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Refunds (now wait|are now approved)/ })).toBeVisible();
}

test('settings show what was saved, right after saving', async ({ page }) => {
  await signUp(page, newMerchant('Settled In'));
  await page.goto('/dashboard/settings');

  const automatic = page.getByRole('radio', { name: /^Automatic/ });
  const manual = page.getByRole('radio', { name: /^Manual/ });
  await manual.check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Refunds now wait for your approval under Refunds.')).toBeVisible();
  // the choice stays where it was saved, beside the line that says so
  await expect(manual).toBeChecked();
  await expect(automatic).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Save policy' })).toBeDisabled();

  const usdc = page.getByRole('checkbox', { name: /^USDC/ });
  await expect(usdc).toBeChecked();
  await usdc.uncheck();
  await page.getByRole('button', { name: 'Save methods' }).click();
  await expect(page.getByText('Payment methods saved.')).toBeVisible();
  await expect(usdc).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Card/ })).toBeChecked();
  await expectAccessibleAtBothSizes(page);
  await screenshotBoth(page, 'settings-saved');

  // and back again, then a reload agrees
  await automatic.check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Refunds are now approved automatically.')).toBeVisible();
  await expect(automatic).toBeChecked();
  await page.reload();
  await expect(automatic).toBeChecked();
  await expect(usdc).not.toBeChecked();
});

test('a refund completes on screen without a reload, on the payment, the refunds list and home', async ({ page }) => {
  test.setTimeout(90_000);
  const key = await merchantWithKey(page, 'Live Wire');
  const payment = await paidPayment(key);

  await page.goto(`/dashboard/payments/${payment.id}`);
  const details = page.getByRole('region', { name: 'Details' });
  await page.getByLabel('Amount (USD)').fill('10.00');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Refund US$10.00' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$10.00 requested.' })).toBeVisible();

  // the sandbox provider finishes it in about a second; the page follows on its own
  const refunds = page.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByText('Completed').filter({ visible: true })).toBeVisible({ timeout: 15_000 });
  await expect(details).toContainText('RefundedUS$10.00');
  await expect(details).toContainText('RefundableUS$27.50');
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$10.00 requested.' })).toContainText(
    'The provider has completed it.',
  );
  await expect(page.getByText('The provider completes it in a moment.')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('Refund of US$10.00 completed');

  // the refunds list follows a refund from the merchant's server the same way
  const fromServer = await refundOverApi(key, payment.id, 500);
  await page.goto('/dashboard/refunds');
  const row = page.getByRole('row').filter({ hasText: fromServer.id });
  await expect(row).toContainText('Completed', { timeout: 15_000 });
  await expect(row.getByRole('button')).toHaveCount(0);

  // and so does Home
  await refundOverApi(key, payment.id, 700);
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: /Refund of US\$7\.00 completed/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('definition').filter({ hasText: 'US$22.00' }).first()).toBeVisible();
  await expectAccessibleAtBothSizes(page);
});

test('a Cancel made stale by the API says why and the page catches up', async ({ page }) => {
  const key = await merchantWithKey(page, 'Stale Mate');
  await usePolicy(page, 'Manual');
  const payment = await paidPayment(key);
  const refund = await refundOverApi(key, payment.id, 1000);

  await page.goto('/dashboard/refunds');
  const row = page.getByRole('row').filter({ hasText: refund.id });
  await expect(row).toContainText('Requested');
  // meanwhile the merchant's server cancels it
  expect((await v1(key, 'POST', `/v1/refund-requests/${refund.id}/cancel`)).status).toBe(200);

  await row.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel the refund of US$10.00?' })
    .getByRole('button', { name: 'Cancel refund' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'This refund is already canceled' })).toBeVisible();
  await expect(row).toContainText('Canceled');
  await expect(row.getByRole('button')).toHaveCount(0);
});

test('fully and partly refunded payments say so, and the status filter finds them', async ({ page }) => {
  test.setTimeout(90_000);
  const key = await merchantWithKey(page, 'Badge Barn');
  const whole = await paidPayment(key);
  const part = await paidPayment(key);
  const untouched = await paidPayment(key);
  await refundCompleted(key, (await refundOverApi(key, whole.id, 3750)).id);
  await refundCompleted(key, (await refundOverApi(key, part.id, 1250)).id);

  await page.goto('/dashboard/payments');
  const rowOf = (reference: string) => page.getByRole('row').filter({ hasText: reference });
  await expect(rowOf(whole.orderReference).getByText('Refunded', { exact: true })).toBeVisible();
  await expect(rowOf(part.orderReference).getByText('Partially refunded', { exact: true })).toBeVisible();
  await expect(rowOf(part.orderReference)).toContainText('US$12.50 refunded');
  await expect(rowOf(untouched.orderReference).getByText('Succeeded', { exact: true })).toBeVisible();
  await expectAccessibleAtBothSizes(page);
  await screenshotBoth(page, 'payments-refunded');

  const status = page.getByLabel('Status');
  await status.selectOption('Refunded');
  await page.waitForURL(/status=refunded/);
  await expect(rowOf(whole.orderReference)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(2);

  await status.selectOption('Partially refunded');
  await page.waitForURL(/status=partially_refunded/);
  await expect(rowOf(part.orderReference)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(2);

  // Succeeded is what has kept all of its money, as the badges say
  await status.selectOption('Succeeded');
  await page.waitForURL(/status=succeeded/);
  await expect(rowOf(untouched.orderReference)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(2);

  await page.goto(`/dashboard/payments/${whole.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Refunded');
  await page.goto('/dashboard');
  await expect(page.getByRole('table', { name: 'Recent payments' }).getByText('Partially refunded')).toBeVisible();
});

test('a refund is confirmed in a dialog that names the amount and the payment, then says what happened', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const key = await merchantWithKey(page, 'Careful Hands');
  const payment = await paidPayment(key);

  await page.goto(`/dashboard/payments/${payment.id}`);
  const amount = page.getByLabel('Amount (USD)');
  // the amount starts at what is left; emptied, the hint says how much that is, and Refund asks for an amount
  await expect(amount).toHaveValue('37.50');
  await amount.fill('');
  await expect(amount).toHaveAccessibleDescription('Up to US$37.50 can be refunded.');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(amount).toHaveAccessibleDescription('Enter an amount like 12.50.');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await amount.fill('12.5');
  await page.getByLabel('Reason (optional)').fill('Arrived late');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund US$12.50?' });
  await expect(dialog).toContainText(payment.orderReference);
  await expect(dialog).toContainText(payment.id);
  await expect(dialog).toContainText('Visa •••• 4242');
  await expectAccessibleAtBothSizes(page);
  await screenshotBoth(page, 'refund-confirm');

  // going back moves nothing
  await dialog.getByRole('button', { name: 'Go back' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await v1(key, 'GET', `/v1/refund-requests?payment_id=${payment.id}`)).body.data).toHaveLength(0);
  await expect(amount).toHaveValue('12.5');

  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await dialog.getByRole('button', { name: 'Refund US$12.50' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$12.50 requested.' })).toBeVisible();
  // the field starts again at what is left
  await expect(amount).toHaveValue('25.00');
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('RefundedUS$12.50', { timeout: 15_000 });
  await expectAccessibleAtBothSizes(page);
  await screenshotBoth(page, 'payment-refund-done');

  // approving, under the manual policy, is confirmed the same way
  await usePolicy(page, 'Manual');
  const waiting = await refundOverApi(key, payment.id, 1000);
  await page.goto('/dashboard/refunds?status=requested');
  await page.getByRole('row').filter({ hasText: waiting.id }).getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: 'Approve the refund of US$10.00?' });
  await expect(approve).toContainText(payment.orderReference);
  await expect(approve).toContainText(payment.id);
  await screenshot(page, 'dashboard-refund-approve-confirm-desktop');
  await approve.getByRole('button', { name: 'Not now' }).click();
  // on a phone the refund is a card with its own buttons, and the same dialog
  await page.setViewportSize(PHONE);
  await page.getByRole('list', { name: 'Refund requests' }).getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toContainText(payment.orderReference);
  await expectAccessible(page);
  await screenshot(page, 'dashboard-refund-approve-confirm-phone');
  await approve.getByRole('button', { name: 'Approve refund' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$10.00 approved.' })).toBeVisible();
  await expect(page.getByText('No requested refunds')).toBeVisible(); // it left the Requested tab, and the line stays
  await refundCompleted(key, waiting.id);
});

test('a failed attempt’s timeline is its own, with a link to the payment that paid the order', async ({ page }) => {
  const key = await merchantWithKey(page, 'Second Try');
  const session = await createSessionWith(key);
  const declined = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4000000000000002',
  });
  expect(declined.body).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);
  const { body: attempts } = await v1(key, 'GET', `/v1/payments?order_reference=${session.order_reference}`);
  const failed = attempts.data.find((payment: { status: string }) => payment.status === 'failed');

  await page.goto(`/dashboard/payments/${failed.id}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('Payment attempt failed: Card declined');
  await expect(timeline).not.toContainText('Payment succeeded');
  await expect(timeline).not.toContainText('checkout_session.completed');
  await expectAccessibleAtBothSizes(page);
  await screenshotBoth(page, 'payment-failed-attempt');

  await page.getByRole('region', { name: 'Details' }).getByRole('link', { name: paid.body.id }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Succeeded');
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('Payment succeeded');
  await expect(page.getByRole('region', { name: 'Timeline' })).not.toContainText('Payment attempt failed');
  await expect(page.getByRole('region', { name: 'Details' }).getByRole('link', { name: failed.id })).toBeVisible();
});

test('a waiting refund says how Decline differs from Cancel', async ({ page }) => {
  const key = await merchantWithKey(page, 'Two Doors');
  await usePolicy(page, 'Manual');
  const payment = await paidPayment(key);
  const refund = await refundOverApi(key, payment.id, 1000);

  for (const size of [undefined, PHONE]) {
    if (size) await page.setViewportSize(size);
    await page.goto('/dashboard/refunds?status=requested');
    const decline = page.getByRole('button', { name: 'Decline' }).filter({ visible: true });
    const cancel = page.getByRole('button', { name: 'Cancel' }).filter({ visible: true });
    await expect(decline).toHaveAccessibleDescription(/^Decline refuses the customer’s refund/);
    await expect(cancel).toHaveAccessibleDescription(/^Cancel withdraws a request made by mistake/);
    await expect(page.getByText('Decline refuses the customer’s refund').filter({ visible: true })).toBeVisible();
    await expectAccessible(page);
  }
  await screenshotBoth(page, 'refunds-decline-or-cancel');

  await page.getByRole('button', { name: 'Decline' }).filter({ visible: true }).click();
  await expect(page.getByRole('dialog', { name: 'Decline the refund of US$10.00?' })).toContainText(
    payment.orderReference,
  );
  expect(refund.id).toMatch(/^rr_/);
});
