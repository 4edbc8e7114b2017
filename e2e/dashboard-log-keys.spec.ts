import { expect, test, type Page } from '@playwright/test';
import { newMerchant, screenshotBoth, signUp, v1 } from './dashboard-support';
import { expectAccessible } from './support';

// Two servers, two keys: Logs says which key made each request (its name, or its prefix when it has none),
// narrows to one key, and names the key on the request's own page. An event's payload reads in the API's order.

async function createNamedKey(page: Page, name: string): Promise<string> {
  await page.goto('/dashboard/developers/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  if (name) await dialog.getByLabel('Name (optional)').fill(name);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await reveal.getByTestId('secret-value').textContent())!.trim();
  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  return key;
}

test('Logs name the key of each request, filter by key and name it on the request’s page', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Two Servers'));
  const orders = await createNamedKey(page, 'Order server');
  const unnamed = await createNamedKey(page, '');
  // how the keys list shows a key: sk_sandbox_AbCd…wxyz
  const prefix = `${unnamed.slice(0, 15)}…${unnamed.slice(-4)}`;
  await expect(page.getByRole('row').filter({ hasText: prefix })).toBeVisible();

  expect((await v1(orders, 'GET', '/v1/payments')).status).toBe(200);
  expect((await v1(orders, 'GET', '/v1/refund-requests')).status).toBe(200);
  expect((await v1(unnamed, 'GET', '/v1/checkout-sessions')).status).toBe(200);

  await page.goto('/dashboard/developers/logs');
  const logs = page.getByRole('table', { name: 'API requests' });
  await expect(async () => {
    await page.reload();
    await expect(logs.getByRole('row')).toHaveCount(4, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(logs.getByRole('row').filter({ hasText: '/v1/payments' })).toContainText('Order server');
  await expect(logs.getByRole('row').filter({ hasText: '/v1/checkout-sessions' })).toContainText(prefix);
  await expectAccessible(page);
  await screenshotBoth(page, 'logs-keys');

  // one key's requests
  await page.getByLabel('API key').selectOption({ label: 'Order server' });
  await page.waitForURL((url) => url.searchParams.has('key'));
  await expect(logs.getByRole('row')).toHaveCount(3);
  await expect(logs).not.toContainText('/v1/checkout-sessions');

  // the request's page names its key, linking to the others it made
  await logs.getByRole('link', { name: /\/v1\/payments/ }).click();
  await expect(page.getByText('API key', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Order server' }).click();
  await page.waitForURL((url) => url.searchParams.has('key'));
  await expect(logs.getByRole('row')).toHaveCount(3);
});

test('an event’s payload lists its keys in the order the API writes them', async ({ page }) => {
  await signUp(page, newMerchant('Orderly Events'));
  await page.goto('/dashboard/settings');
  await page.getByRole('textbox', { name: 'Host' }).fill('localhost:4000');
  await page.getByRole('button', { name: 'Add website' }).click();
  await expect(page.getByRole('button', { name: 'Remove localhost:4000' })).toBeVisible();
  const key = await createNamedKey(page, 'Event maker');
  const session = await v1(key, 'POST', '/v1/checkout-sessions', {
    order_reference: 'order-payload',
    currency: 'USD',
    items: [{ name: 'Tea', quantity: 1, unit_amount: 500 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 500,
    return_url: 'http://localhost:4000/thanks',
  });
  expect(session.status).toBe(201);
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);
  const payment = (await v1(key, 'GET', `/v1/payments/${paid.body.id}`)).body;

  await page.goto('/dashboard/developers/events?type=payment.succeeded');
  await page.getByRole('table', { name: 'Events' }).getByRole('link').first().click();
  const shown = JSON.parse((await page.getByRole('region', { name: 'Event payload' }).textContent())!);
  expect(Object.keys(shown)).toEqual(['id', 'object', 'type', 'created_at', 'data']);
  // the payment as GET /v1/payments/{id} writes it, key for key and in its order
  expect(Object.keys(shown.data.object)).toEqual(Object.keys(payment));
});
