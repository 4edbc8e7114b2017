import { expect, test } from '@playwright/test';
import { createKey, newMerchant, screenshotBoth, signUp, v1 } from './dashboard-support';
import { expectAccessible } from './support';

// What the API could already do to a webhook endpoint, in the dashboard: edit its URL, events and description,
// disable it and enable it again; and the endpoint list says when fault injection is on.

test('a merchant edits an endpoint, disables and enables it, and sees "Faults on" in the list', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Hook Editor'));
  const key = await createKey(page);
  await page.goto('/dashboard/developers/webhooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await add.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/old-hooks');
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await page
    .getByRole('dialog', { name: 'Your endpoint’s signing secret' })
    .getByRole('button', { name: 'Done' })
    .click();
  const list = page.getByRole('table', { name: 'Webhook endpoints' });
  await expect(list).not.toContainText('Faults on');
  await list.getByRole('link', { name: 'http://127.0.0.1:9/old-hooks' }).click();
  await page.waitForURL(/\/webhooks\/we_/);
  const endpointId = page.url().split('/').pop()!;

  // Edit starts from what the endpoint has; a bad URL is refused beside the field, keeping what was typed
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the endpoint' });
  await expect(edit.getByLabel('Endpoint URL')).toHaveValue('http://127.0.0.1:9/old-hooks');
  await expect(edit.getByRole('radio', { name: /^All events/ })).toBeChecked();
  await edit.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByLabel('Endpoint URL')).toHaveAccessibleDescription('This URL must use http or https');
  await edit.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/new-hooks');
  await edit.getByLabel('Description (optional)').fill('Refund handler');
  await edit.getByRole('radio', { name: 'Selected events' }).check();
  await edit.getByRole('checkbox', { name: 'refund.completed' }).check();
  await edit.getByRole('checkbox', { name: 'refund.failed' }).check();
  await expectAccessible(page);
  await screenshotBoth(page, 'webhook-edit');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Endpoint saved' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('http://127.0.0.1:9/new-hooks');
  const saved = (await v1(key, 'GET', `/v1/webhook-endpoints/${endpointId}`)).body;
  expect(saved).toMatchObject({
    url: 'http://127.0.0.1:9/new-hooks',
    description: 'Refund handler',
    events: ['refund.completed', 'refund.failed'],
    status: 'enabled',
  });

  // Disable asks first; Enable is one click
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Disable this endpoint?' })
    .getByRole('button', { name: 'Disable endpoint' })
    .click();
  await expect(page.getByRole('button', { name: 'Enable', exact: true })).toBeVisible();
  expect((await v1(key, 'GET', `/v1/webhook-endpoints/${endpointId}`)).body.status).toBe('disabled');
  await screenshotBoth(page, 'webhook-disabled');
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();
  expect((await v1(key, 'GET', `/v1/webhook-endpoints/${endpointId}`)).body.status).toBe('enabled');

  // fault injection on: the list says so
  await page.getByLabel('Duplicate rate (%)').fill('50');
  await page.getByRole('button', { name: 'Save fault injection' }).click();
  await expect(page.getByText('Fault injection saved.')).toBeVisible();
  await page.getByRole('link', { name: 'Webhooks' }).first().click();
  const row = list.getByRole('row').filter({ hasText: 'http://127.0.0.1:9/new-hooks' });
  await expect(row).toContainText('Faults on');
  await expectAccessible(page);
  await screenshotBoth(page, 'webhooks-faults-on');
});
