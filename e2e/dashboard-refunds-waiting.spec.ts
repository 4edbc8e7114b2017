import { expect, test } from '@playwright/test';
import { createKey, createSessionWith, newMerchant, screenshotBoth, signUp, v1 } from './dashboard-support';
import { expectAccessible, PHONE } from './support';

// Under the manual policy a refund request is money not yet given back: Home counts completed refunds only,
// says that one waits for approval and links to it, and the sidebar's Refunds item carries the count. A
// payment's page left open in another tab shows the approval once the tab is looked at again. Home's figures
// stay inside their cards on a phone.

test('a refund waiting for approval is announced on Home and in the sidebar, and counted only once completed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Patient Shop'));
  // a precondition here (dashboard-forms.spec.ts tells the form's own story): read back from the page itself
  await page.goto('/dashboard/settings');
  await page.getByRole('textbox', { name: 'Host' }).fill('localhost:4000');
  const approved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/dashboard/settings'),
  );
  await page.getByRole('button', { name: 'Add website' }).click();
  await approved;
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('button', { name: 'Remove localhost:4000' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('radio', { name: /^Manual/ }).check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Refunds now wait for your approval under Refunds.')).toBeVisible();
  const key = await createKey(page);
  const session = await createSessionWith(key, {
    items: [{ name: 'Espresso machine', quantity: 1, unit_amount: 163_339 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 163_339,
  });
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);
  const paymentId: string = paid.body.id;
  const refund = await v1(key, 'POST', '/v1/refund-requests', { payment_id: paymentId, amount: 20_000 });
  expect(refund.status).toBe(201);

  await page.goto('/dashboard');
  const figures = page.locator('dl').filter({ hasText: 'Gross volume' });
  const refunds = figures.locator('div').filter({ hasText: /^Refunds/ });
  await expect(refunds).toContainText('US$0.00');
  await expect(refunds).toContainText('0 refunds completed');
  await expect(figures.locator('div').filter({ hasText: /^Refund rate/ })).toContainText('0.0%');
  await expect(page.getByText('1 refund waits for your approval.')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Refunds 1 waiting for your approval' })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, 'home-refund-waiting');

  // on a phone, the volume stays inside its card
  await page.setViewportSize(PHONE);
  const volume = figures.locator('div').filter({ hasText: /^Gross volume/ });
  await expect(volume).toContainText('US$1,633.39');
  const card = (await volume.boundingBox())!;
  const value = (await volume.locator('dd').first().boundingBox())!;
  expect(value.x + value.width).toBeLessThanOrEqual(card.x + card.width);
  expect(
    await volume
      .locator('dd')
      .first()
      .evaluate((node) => node.scrollWidth <= node.clientWidth),
  ).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });

  // the payment's page, open in this tab, while the refund is approved in another
  await page.goto(`/dashboard/payments/${paymentId}`);
  // the refund's status badge
  const requested = page
    .getByRole('region', { name: 'Refunds' })
    .getByText(/^Requested$/)
    .filter({ visible: true });
  await expect(requested).toHaveCount(1);
  const other = await page.context().newPage();
  await other.goto('/dashboard');
  await other.getByRole('link', { name: 'Review it' }).click();
  await other.waitForURL('**/dashboard/refunds?status=requested');
  await other.getByRole('button', { name: 'Approve' }).click();
  await other
    .getByRole('dialog', { name: 'Approve the refund of US$200.00?' })
    .getByRole('button', { name: 'Approve refund' })
    .click();
  await expect(other.getByRole('status').filter({ hasText: 'Refund of US$200.00 approved.' })).toBeVisible();
  await expect(
    other.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Refunds', exact: true }),
  ).toBeVisible();
  await other.close();

  // back to the first tab: it reads the page again, and the refund is no longer waiting
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(requested).toHaveCount(0);

  // completed by the provider (half a second here): now Home counts it
  await expect(async () => {
    await page.goto('/dashboard');
    await expect(refunds).toContainText('1 refund completed', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(refunds).toContainText('US$200.00');
  await expect(page.getByText('waits for your approval')).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Refunds', exact: true })).toBeVisible();
});
