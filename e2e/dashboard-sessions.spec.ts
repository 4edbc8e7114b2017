import { expect, test } from '@playwright/test';
import { shopRoutes, SHOP } from './support';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';

// Checkout sessions as the merchant sees them, and a USDC payment, whose refund needs a note on how the
// customer's own wallet was verified.

test('a merchant follows sessions from open to paid or expired, and refunds a USDC payment with a destination note', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Coin Corner'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);

  await page.goto('/dashboard/checkout-sessions');
  await expect(page.getByText('No checkout sessions yet')).toBeVisible();

  const open = await createSessionWith(key, { order_reference: 'order-open' });
  const toExpire = await createSessionWith(key, { order_reference: 'order-expire' });
  const usdc = await createSessionWith(key, { order_reference: 'order-usdc' });

  // the customer pays in USDC on the hosted page
  const customer = await page.context().newPage();
  await shopRoutes(customer);
  await customer.goto(usdc.url);
  await customer.getByRole('tab', { name: 'USDC' }).click();
  await customer.getByLabel('E-mail', { exact: true }).fill('satoshi@example.com');
  await customer.getByRole('button', { name: 'Simulate transfer' }).click();
  await customer.waitForURL(`${SHOP}/**`);
  await customer.close();

  await page.goto('/dashboard/checkout-sessions');
  const rows = page.getByRole('table', { name: 'Checkout sessions' }).getByRole('row');
  await expect(rows.filter({ hasText: 'order-usdc' })).toContainText('Complete');
  await expect(rows.filter({ hasText: 'order-open' })).toContainText('Open');
  await screenshotBoth(page, 'checkout-sessions');

  // expire one from its page
  await rows.filter({ hasText: 'order-expire' }).getByRole('link').click();
  await expect(page.getByText(toExpire.url)).toBeVisible();
  await expect(page.getByText('No attempt yet.')).toBeVisible();
  await screenshotBoth(page, 'checkout-session');
  await page.getByRole('button', { name: 'Expire session' }).click();
  await page
    .getByRole('dialog', { name: 'Expire this checkout session?' })
    .getByRole('button', { name: 'Expire session' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Expired');
  expect((await v1(key, 'GET', `/v1/checkout-sessions/${toExpire.id}`)).body.status).toBe('expired');
  await expect(page.getByRole('link', { name: 'checkout_session.expired' })).toBeVisible();

  // the status filter
  await page.goto('/dashboard/checkout-sessions');
  await page.getByLabel('Status').selectOption('open');
  await page.waitForURL(/checkout-sessions\?.*status=open/);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'order-open' })).toBeVisible();
  expect(open.id).toMatch(/^cs_/);

  // the USDC payment: the note is required, then kept with the refund
  await page.goto('/dashboard/checkout-sessions?q=order-usdc');
  await page.getByRole('table', { name: 'Checkout sessions' }).getByRole('link').click();
  await page.getByRole('link', { name: /^USDC · 0x/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('US$37.50');
  const note = page.getByLabel('Destination verification note (required)');
  await expect(note).toHaveAccessibleDescription(/never sent back to the address that paid/);
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  // checked before the dialog: nothing is confirmed that the server would refuse
  await expect(note).toHaveAccessibleDescription(/^Say which wallet of the customer’s the refund goes to/);
  await expect(note).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await note.fill('Customer signed a message from their own wallet on a support call');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$5.00?' }).getByRole('button', { name: 'Refund US$5.00' }).click();
  await expect(page.getByText('Refund of US$5.00 requested.')).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Refund requests' })
      .getByText('Destination: Customer signed a message from their own wallet on a support call'),
  ).toBeVisible();
  await screenshotBoth(page, 'payment-usdc');
});
