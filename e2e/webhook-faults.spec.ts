import { expect, test } from '@playwright/test';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
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

// A merchant tests their webhook handler against duplicates: fault injection is turned on in the endpoint's
// Fault injection panel, and the injected duplicate shows in the delivery log, marked as such.

let receiver: TestReceiver;

test.beforeEach(async () => {
  receiver = await startTestReceiver();
});

test.afterEach(async () => {
  await receiver.close();
});

test('a merchant turns on duplicates and sees the injected attempt in the delivery log', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Fault Shop'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const { body: endpoint } = await v1(key, 'POST', '/v1/webhook-endpoints', {
    url: receiver.url,
    events: ['checkout_session.expired'],
  });

  await page.goto(`/dashboard/developers/webhooks/${endpoint.id}`);
  const panel = page.getByRole('region', { name: 'Fault injection' });
  await expect(panel.getByLabel('Duplicate rate (%)')).toHaveValue('0');
  // a rate above 100 % is refused beside its field
  await panel.getByLabel('Duplicate rate (%)').fill('150');
  await panel.getByRole('button', { name: 'Save fault injection' }).click();
  await expect(panel.getByLabel('Duplicate rate (%)')).toHaveAccessibleDescription(/Enter a percentage from 0 to 100/);
  await panel.getByLabel('Duplicate rate (%)').fill('100');
  await panel.getByLabel('Seed').fill('42');
  await panel.getByRole('button', { name: 'Save fault injection' }).click();
  await expect(panel.getByText('Fault injection saved.')).toBeVisible();
  const { body: shown } = await v1(key, 'GET', `/v1/webhook-endpoints/${endpoint.id}`);
  expect(shown.faults).toEqual({ duplicate_rate: 1, delay_seconds: 0, shuffle: false, seed: 42 });

  // an event: delivered, then sent once more by fault injection
  const session = await createSessionWith(key);
  expect((await v1(key, 'POST', `/v1/checkout-sessions/${session.id}/expire`)).status).toBe(200);
  const [first, duplicate] = await receiver.waitFor(2, 30_000);
  expect(duplicate.headers['webhook-id']).toBe(first.headers['webhook-id']);

  const row = page
    .getByRole('table', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ hasText: 'checkout_session.expired' });
  const attempts = page.getByRole('list', { name: 'Attempts of checkout_session.expired' });
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('+1 injected duplicate', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await row.getByRole('button', { name: /attempts: show$/ }).click();
  await expect(attempts.getByRole('listitem')).toHaveCount(2);
  await expect(attempts.getByRole('listitem').nth(0)).not.toContainText('Duplicate (injected)');
  await expect(attempts.getByRole('listitem').nth(1)).toContainText('Duplicate (injected)');
  await expectAccessible(page);
  await screenshotBoth(page, 'webhook-faults');
});
