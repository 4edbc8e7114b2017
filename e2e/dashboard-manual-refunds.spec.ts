import { expect, test } from '@playwright/test';
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

// A merchant who wants to look at every refund first: with the manual policy, refunds requested over the
// API or in the dashboard wait under Refunds until someone approves, declines or cancels them.

test('under the manual policy a merchant approves one refund, declines another and cancels a third', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Careful Co'));
  await approveWebsite(page, 'localhost:4000');

  await page.goto('/dashboard/settings');
  await page.getByRole('radio', { name: /^Manual/ }).check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Refunds now wait for your approval under Refunds.')).toBeVisible();

  const key = await createKey(page);
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  const { body: paid } = await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`);

  // two refunds from the merchant's server, one from the dashboard
  const overApi = await v1(key, 'POST', '/v1/refund-requests', {
    payment_id: paid.payment_id,
    amount: 1000,
    reason: 'Late delivery',
  });
  expect(overApi.status).toBe(201);
  const toDecline = await v1(key, 'POST', '/v1/refund-requests', {
    payment_id: paid.payment_id,
    amount: 2000,
    reason: 'Changed mind',
  });
  expect(toDecline.status).toBe(201);
  await page.goto(`/dashboard/payments/${paid.payment_id}`);
  await expect(page.getByText('Your refund policy is manual: refunds wait for approval.')).toBeVisible();
  // the amount starts at what is left
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('7.50');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$7.50?' }).getByRole('button', { name: 'Refund US$7.50' }).click();
  await expect(page.getByText('Refund of US$7.50 requested. It waits for approval under Refunds.')).toBeVisible();
  // everything is reserved while the requests wait
  await expect(page.getByText('The whole amount is refunded or being refunded.')).toBeVisible();

  await page.goto('/dashboard/refunds');
  await expect(page.getByText('3 refunds wait for your approval.')).toBeVisible();
  await page.getByRole('link', { name: 'Review them' }).click();
  await expect(page.getByRole('link', { name: 'Requested 3' })).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: 'Refund requests' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await screenshotBoth(page, 'refunds-requested');

  // approve: the provider completes it
  const approved = table.getByRole('row').filter({ hasText: 'US$10.00' });
  await approved.getByRole('button', { name: 'Approve' }).click();
  await page
    .getByRole('dialog', { name: 'Approve the refund of US$10.00?' })
    .getByRole('button', { name: 'Approve refund' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Refund of US$10.00 approved.' })).toBeVisible();
  await expect(approved).toHaveCount(0); // it left the Requested tab
  await expect(page.getByRole('link', { name: 'Requested 2' })).toBeVisible();
  await page.getByRole('link', { name: /^All/ }).click();
  await page.waitForURL(/\/dashboard\/refunds$/);
  await expect(async () => {
    await page.reload();
    await expect(table.getByRole('row').filter({ hasText: 'US$10.00' })).toContainText('Completed', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  // decline, after confirming
  const declined = table.getByRole('row').filter({ hasText: 'US$20.00' });
  await declined.getByRole('button', { name: 'Decline' }).click();
  const confirm = page.getByRole('dialog', { name: 'Decline the refund of US$20.00?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await screenshotBoth(page, 'refund-decline-confirm');
  await confirm.getByRole('button', { name: 'Decline refund' }).click();
  await expect(declined).toContainText('Declined');

  // cancel the dashboard's own request
  const canceled = table.getByRole('row').filter({ hasText: 'US$7.50' });
  await canceled.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel the refund of US$7.50?' })
    .getByRole('button', { name: 'Cancel refund' })
    .click();
  await expect(canceled).toContainText('Canceled');
  await expect(canceled.getByRole('button')).toHaveCount(0);
  await screenshotBoth(page, 'refunds');

  // the declined and canceled amounts are refundable again; the API agrees
  const { body: payment } = await v1(key, 'GET', `/v1/payments/${paid.payment_id}`);
  expect(payment).toMatchObject({ amount_refunded: 1000, amount_refundable: 2750 });
  await page.goto(`/dashboard/payments/${paid.payment_id}`);
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('27.50');
  await expect(page.getByText('Refund of US$20.00 declined')).toBeVisible();
  await expect(page.getByText('Refund of US$7.50 canceled')).toBeVisible();
});
