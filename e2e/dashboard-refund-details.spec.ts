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
import { expectAccessible } from './support';

// Refunding from a payment's page: the amount starts as all that is left, reads what is typed as people type
// it, a failed refund says why where the merchant is looking, reasons read as words, and a USDC refund's
// destination note is asked for, explained and checked before anything is confirmed.

test('the refund amount starts full, reads "12,50", and a failed refund says why right there', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Refund details'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  // a test card whose refunds fail at the provider
  await payByCard(page, session.url, '4000 0000 0000 5126');
  const payment = (await v1(key, 'GET', `/v1/payments?order_reference=${session.order_reference}`)).body.data[0];

  await page.goto(`/dashboard/payments/${payment.id}`);
  const amount = page.getByLabel('Amount (USD)');
  await expect(amount).toHaveValue('37.50');
  await expect(page.getByRole('button', { name: /^Full amount/ })).toHaveCount(0);

  await amount.fill('12,50');
  await expect(amount).toHaveAccessibleDescription('Reads as US$12.50.');
  await expect(page.getByRole('button', { name: 'Full amount (US$37.50)' })).toBeVisible();
  await screenshotBoth(page, 'refund-amount-typed');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Full amount (US$37.50)' }).click();
  await expect(amount).toHaveValue('37.50');

  await amount.fill('1,500');
  await expect(amount).toHaveAccessibleDescription(/could be 1500 or 1\.500/);
  await amount.fill('12,50');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$12.50?' }).getByRole('button', { name: 'Refund US$12.50' }).click();

  const said = page.getByRole('status').filter({ hasText: 'Refund of US$12.50 requested.' });
  await expect(said).toContainText(
    'The provider could not complete it: The card issuer refused the refund (sandbox test card 4000 0000 0000 5126)',
  );
  await expect(page.getByText('the reason is under Refunds')).toHaveCount(0);
  // what is left is all of it again, and the field says so
  await expect(amount).toHaveValue('37.50');
  await screenshotBoth(page, 'refund-failed');
  await expectAccessible(page);
});

test('a reason sent as a code reads as words in the refunds list', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Refund reasons'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  const payment = (await v1(key, 'GET', `/v1/payments?order_reference=${session.order_reference}`)).body.data[0];
  for (const reason of ['requested_by_customer', 'Wrong size, customer sent it back']) {
    const created = await v1(key, 'POST', '/v1/refund-requests', { payment_id: payment.id, amount: 100, reason });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }

  await page.goto('/dashboard/refunds');
  const list = page.getByRole('main');
  // the list is a table from 2xl and cards below it: the one shown at this width
  await expect(list.getByText('Requested by customer').locator('visible=true').first()).toBeVisible();
  await expect(list.getByText('Wrong size, customer sent it back').locator('visible=true').first()).toBeVisible();
  await expect(list.getByText('requested_by_customer')).toHaveCount(0);
  await screenshotBoth(page, 'refund-reasons');
  await expectAccessible(page);
});

test('a USDC refund asks for its destination note, says what it is for, and checks it before confirming', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('USDC refund'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const session = await createSessionWith(key);
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
    payment_method: 'usdc',
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);

  await page.goto(`/dashboard/payments/${paid.body.id}`);
  const note = page.getByLabel('Destination verification note (required)');
  await expect(note).toHaveAccessibleDescription(
    /Ask the customer for a wallet of their own and check that it is theirs/,
  );
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(note).toBeFocused();
  await expect(note).toHaveAccessibleDescription(
    'Say which wallet of the customer’s the refund goes to and how you checked it is theirs.',
  );
  await screenshotBoth(page, 'refund-usdc-note-missing');
  await expectAccessible(page);

  await note.fill('Refund to 0x52908400098527886e0f7030069857d2e4169ee7: the customer signed a message from it');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('dialog', { name: 'Refund US$37.50?' }).getByRole('button', { name: 'Refund US$37.50' }).click();
  await expect(page.getByText('Refund of US$37.50 requested.')).toBeVisible();
});
