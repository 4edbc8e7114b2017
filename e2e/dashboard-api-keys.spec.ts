import { expect, test } from '@playwright/test';
import { createKeyInDialog, newMerchant, screenshotBoth, signUp, v1 } from './dashboard-support';

// A key lives from the dashboard: created with the scopes it needs, seen at work in Logs, revoked.

test('a merchant creates a narrow key, sees its requests in Logs, revokes it and the API refuses it', async ({
  page,
}) => {
  // four pages shot at two sizes: over a minute on a busy 2-core machine
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Key Keeper'));
  await page.goto('/dashboard/developers/api-keys');
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await screenshotBoth(page, 'api-keys-empty');

  // no scope is refused in the dialog
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  for (const box of await dialog.getByRole('checkbox').all()) await box.uncheck();
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Choose at least one scope.')).toBeVisible();
  // the refusal leaves the boxes as the merchant left them
  for (const box of await dialog.getByRole('checkbox').all()) await expect(box).not.toBeChecked();
  await screenshotBoth(page, 'api-key-create');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const key = await createKeyInDialog(page, ['payments:read']);
  const row = page.getByRole('row').filter({ hasText: key.slice(0, 15) });
  await expect(row).toContainText(`${key.slice(0, 15)}…${key.slice(-4)}`);
  await expect(row).toContainText('payments:read');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');

  // the key reads, and is refused what it has no scope for
  expect((await v1(key, 'GET', '/v1/payments')).status).toBe(200);
  const refused = await v1(key, 'GET', '/v1/refund-requests');
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('insufficient_scope');

  await page.reload();
  await expect(row).not.toContainText('Never');

  // both requests are in Logs, with their request ids
  await page.goto('/dashboard/developers/logs');
  const logs = page.getByRole('table', { name: 'API requests' });
  // the wrapper writes the log after answering, so it may land a moment later
  await expect(async () => {
    await page.reload();
    await expect(logs.getByRole('row').filter({ hasText: 'GET/v1/payments' })).toContainText('200', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(logs.getByRole('row').filter({ hasText: '/v1/refund-requests' })).toContainText('403');
  await expect(logs.getByText(refused.body.error.request_id).first()).toBeAttached();
  await screenshotBoth(page, 'logs');

  // revoke, after confirming: the next request is refused
  await page.goto('/dashboard/developers/api-keys');
  await row.getByRole('button', { name: /^Revoke/ }).click();
  const confirm = page.getByRole('dialog', { name: /^Revoke sk_sandbox_/ });
  await expect(confirm).toContainText('401 invalid_api_key');
  await screenshotBoth(page, 'api-key-revoke-confirm');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);

  const after = await v1(key, 'GET', '/v1/payments');
  expect(after.status).toBe(401);
  expect(after.body.error.code).toBe('invalid_api_key');
});
