import { expect, test } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import { expectAccessible } from './support';

// Metadata (lib/core/metadata.ts) as the merchant sees it: a payment's page lists the metadata its session was made
// with; a payment without any says so.

test('a payment’s page shows the metadata copied from its checkout session', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Tag Shop'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);

  const tagged = await createSessionWith(key, {
    order_reference: 'order-tagged',
    metadata: { cart_id: 'cart_5521', customer_note: 'Leave at the side door' },
  });
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${tagged.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);

  await page.goto(`/dashboard/payments/${paid.body.id}`);
  const metadata = page.getByRole('region', { name: 'Metadata' });
  await expect(metadata.getByRole('term')).toHaveText(['cart_id', 'customer_note']);
  await expect(metadata.getByRole('definition')).toHaveText(['cart_5521', 'Leave at the side door']);
  await screenshotBoth(page, 'payment-metadata');

  // a refund (which has no page of its own) shows its metadata in the payment's list of refunds
  const refund = await v1(key, 'POST', '/v1/refund-requests', {
    payment_id: paid.body.id,
    amount: 500,
    metadata: { ticket: 'SUP-118' },
  });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Refunds' }).getByText('SUP-118').first()).toBeVisible();
  await expectAccessible(page);

  // its session's page shows the same pairs
  await page.goto(`/dashboard/checkout-sessions/${tagged.id}`);
  await expect(page.getByRole('region', { name: 'Metadata' }).getByRole('definition')).toHaveText([
    'cart_5521',
    'Leave at the side door',
  ]);

  // a payment link's page shows the link's own
  const link = await v1(key, 'POST', '/v1/payment-links', {
    name: 'Gift card',
    amount: 2500,
    currency: 'USD',
    metadata: { campaign: 'winter' },
  });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  await page.goto(`/dashboard/payment-links/${link.body.id}`);
  const linkMetadata = page.getByRole('region', { name: 'Metadata' });
  await expect(linkMetadata.getByRole('term')).toHaveText(['campaign']);
  await expect(linkMetadata.getByRole('definition')).toHaveText(['winter']);

  const plain = await createSessionWith(key, { order_reference: 'order-plain' });
  const plainPayment = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${plain.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  await page.goto(`/dashboard/payments/${plainPayment.body.id}`);
  await expect(page.getByRole('region', { name: 'Metadata' })).toContainText('No metadata');
});
