import { expect, test } from '@playwright/test';
import { newMerchant, PASSWORD, screenshotBoth, signUp } from './dashboard-support';
import { expectAccessible } from './support';

// Secrets a merchant cannot lose by accident: a new API key (never shown again) stays on screen until
// "I have copied it", with Escape and a click outside asking first; a webhook endpoint's signing secret, which
// the server keeps to sign with, is shown again after the password, with a rotation's old one while it signs.

test('the new API key dialog closes only through "I have copied it"; Escape and a click outside ask first', async ({
  page,
}) => {
  await signUp(page, newMerchant('Key Keeper'));
  await page.goto('/dashboard/developers/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create an API key' });
  await expect(create.getByLabel('Name (optional)')).not.toHaveAttribute('placeholder', /production/i);
  await create.getByRole('button', { name: 'Create key' }).click();

  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await reveal.getByTestId('secret-value').textContent())!.trim();
  expect(key).toMatch(/^sk_sandbox_/);
  await page.keyboard.press('Escape');
  await expect(reveal).toBeVisible();
  const asking = reveal.getByRole('alert');
  await expect(asking).toContainText('Close without copying it? It cannot be shown again.');
  await expectAccessible(page);
  await screenshotBoth(page, 'api-key-close-asks');
  await asking.getByRole('button', { name: 'Keep it open' }).click();
  await expect(reveal.getByTestId('secret-value')).toHaveText(key);

  // a click on the backdrop, outside the panel, asks too
  await page.mouse.click(5, 5);
  await expect(reveal).toBeVisible();
  await expect(reveal.getByRole('alert')).toBeVisible();
  await reveal.getByRole('button', { name: 'Keep it open' }).click();

  await reveal.getByRole('button', { name: 'I have copied it' }).click();
  await expect(reveal).toBeHidden();
  await expect(
    page
      .getByRole('table')
      .getByRole('row')
      .filter({ hasText: key.slice(0, 15) }),
  ).toBeVisible();
});

test('a signing secret is revealed again after the password, with the old one while a rotation keeps it signing', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Hook Keeper'));
  await page.goto('/dashboard/developers/webhooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const form = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks');
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const made = page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
  const secret = (await made.getByTestId('secret-value').textContent())!.trim();
  await made.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('link', { name: 'http://127.0.0.1:9/hooks' }).click();

  // a wrong password reveals nothing
  await page.getByRole('button', { name: 'Reveal', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reveal the signing secret' });
  await dialog.getByLabel('Your password').fill('not my password at all');
  await dialog.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(dialog.getByLabel('Your password')).toHaveAccessibleDescription('That is not your password.');
  await expect(dialog.getByTestId('revealed-secret')).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, 'webhook-reveal-password');

  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(dialog.getByTestId('revealed-secret')).toHaveText(secret);
  await expect(dialog.getByTestId('revealed-previous-secret')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // after a rotation: the new secret, and the old one while it still signs
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page
    .getByRole('dialog', { name: 'Rotate the signing secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  const rotated = page.getByRole('dialog', { name: 'Your new signing secret' });
  const newSecret = (await rotated.getByTestId('secret-value').textContent())!.trim();
  await rotated.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Reveal', exact: true }).click();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(dialog.getByTestId('revealed-secret')).toHaveText(newSecret);
  await expect(dialog.getByTestId('revealed-previous-secret')).toHaveText(secret);
  await expect(dialog).toContainText('Previous secret, signing beside it until');
  await expectAccessible(page);
  await screenshotBoth(page, 'webhook-reveal-secrets');
});
