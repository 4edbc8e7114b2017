import { expect, test, type Page } from '@playwright/test';
import { approveWebsite, newMerchant, screenshotBoth, shopSession, signUp, v1 } from './dashboard-support';
import { DESKTOP, expectAccessible, PHONE } from './support';

// A developer names the key their order server uses, then works out what that server sent: Logs narrowed
// to its failing POSTs, and one request opened to read what went over the wire, with no secret in sight.

/** The accessibility check at desktop and at phone size. */
async function expectAccessibleBoth(page: Page): Promise<void> {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await expectAccessible(page);
  }
  await page.setViewportSize(DESKTOP);
}

test('a merchant names a key, filters Logs to one kind of request and reads its bodies with the secrets redacted', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, newMerchant('Log Reader'));
  await approveWebsite(page, 'localhost:4000');

  await page.goto('/dashboard/developers/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Name (optional)').fill('Order server');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await reveal.getByTestId('secret-value').textContent())!.trim();
  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  const keyRow = page.getByRole('row').filter({ hasText: key.slice(0, 15) });
  await expect(keyRow).toContainText('Order server');
  await screenshotBoth(page, 'api-keys-named');
  await expectAccessibleBoth(page);

  // the order server: a session, a test payment by card, a webhook endpoint, and a mistake
  const session = await v1(key, 'POST', '/v1/checkout-sessions', shopSession());
  expect(session.status).toBe(201);
  const paid = await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
    payment_method: 'card',
    card_number: '4242424242424242',
    cvc: '123',
  });
  expect(paid.status).toBe(200);
  const endpoint = await v1(key, 'POST', '/v1/webhook-endpoints', {
    url: 'http://localhost:4000/hooks',
    events: ['*'],
  });
  expect(endpoint.status).toBe(201);
  const missing = await v1(key, 'POST', '/v1/refund-requests', {
    payment_id: 'pay_000000000000000000000000',
    amount: 100,
  });
  expect(missing.status).toBe(404);

  await page.goto('/dashboard/developers/logs');
  const logs = page.getByRole('table', { name: 'API requests' });
  await expect(async () => {
    await page.reload();
    await expect(logs.getByRole('row')).toHaveCount(5, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });

  // only what was refused
  await page.getByLabel('Status').selectOption('4xx');
  await page.waitForURL((url) => url.searchParams.get('status') === '4xx');
  await expect(logs.getByRole('row')).toHaveCount(2);
  await expect(logs.getByRole('row').nth(1)).toContainText('/v1/refund-requests');
  await expect(logs.getByRole('row').nth(1)).toContainText('404');

  // POSTs under /v1/test-helpers, typed as people type it (the /v1/ is implied)
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Method').selectOption('POST');
  await page.getByLabel('Path starts with').fill('test-helpers');
  await page.getByLabel('Path starts with').press('Enter');
  await page.waitForURL(
    (url) => url.searchParams.get('path') === 'test-helpers' && url.searchParams.get('method') === 'POST',
  );
  await expect(logs.getByRole('row')).toHaveCount(2);
  await screenshotBoth(page, 'logs-filtered');
  await expectAccessibleBoth(page);
  await page.setViewportSize(PHONE);
  // on a phone the duration stays in view, under the path
  await expect(
    logs
      .getByRole('row')
      .nth(1)
      .getByText(/^\d+ ms ·/),
  ).toBeInViewport();
  await page.setViewportSize(DESKTOP);

  await logs.getByRole('link', { name: /\/v1\/test-helpers\/checkout-sessions\/cs_\w+\/pay/ }).click();
  await page.waitForURL(/\/dashboard\/developers\/logs\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    `POST/v1/test-helpers/checkout-sessions/${session.body.id}/pay`,
  );
  const sent = page.getByRole('region', { name: 'Request body' });
  await expect(sent).toContainText('"payment_method": "card"');
  await expect(sent).toContainText('"card_number": "[redacted]"');
  await expect(sent).toContainText('"cvc": "[redacted]"');
  await expect(sent).not.toContainText('42424242');
  await expect(page.getByRole('region', { name: 'Response body' })).toContainText(`"id": "${paid.body.id}"`);
  await screenshotBoth(page, 'log-detail');
  await expectAccessibleBoth(page);

  // the endpoint's signing secret was answered once, to the server; the log never shows it
  await page.goto('/dashboard/developers/logs?path=/v1/webhook-endpoints');
  await logs.getByRole('link', { name: /\/v1\/webhook-endpoints/ }).click();
  const answered = page.getByRole('region', { name: 'Response body' });
  await expect(answered).toContainText('"secret": "[redacted]"');
  await expect(answered).not.toContainText(endpoint.body.secret);
  expect(await page.content()).not.toContain(endpoint.body.secret);
});
