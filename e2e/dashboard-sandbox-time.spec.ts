import { expect, test } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  openNav,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';
import { expectAccessible, PHONE } from './support';

// A merchant's test clock from the dashboard: its own page under Developers, where each advance first says what
// it will do and waits for a yes; once the clock is ahead, every page says the sandbox time, and the times of
// the account's objects are measured against it (a payment made a moment ago on the advanced clock is "just
// now", not "in 60 minutes").

test('a merchant previews and confirms an advance; every page then shows the sandbox time and measures times against it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, newMerchant('Clock Tower'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);
  const open = await createSessionWith(key, { order_reference: 'order-left-open' });
  const left = await createSessionWith(key, { order_reference: 'order-also-open' });

  await openNav(page, 'Test clock');
  await expect(page.getByRole('heading', { level: 1, name: 'Test clock' })).toBeVisible();
  await expect(page.getByTestId('sandbox-time')).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Advance the test clock' });
  await expect(page.getByTestId('test-clock-offset')).toHaveText('Not advanced');
  await expectAccessible(page);
  await screenshotBoth(page, 'test-clock-page');

  // a refused amount says why, beside the field
  await form.getByRole('textbox', { name: 'Amount' }).fill('1.5');
  await form.getByRole('button', { name: 'Advance…' }).click();
  await expect(form.getByText('Enter a whole number: from 1 minute up to 365 days at a time.')).toBeVisible();

  // one click only asks: it says what the advance will do, and Cancel leaves the clock alone
  await form.getByRole('button', { name: '+1 hour' }).click();
  const confirm = page.getByRole('dialog', { name: 'Advance the clock by 1 hour?' });
  await expect(confirm.getByTestId('advance-effects')).toHaveText('2 open sessions will expire.');
  await expectAccessible(page);
  await screenshotBoth(page, 'test-clock-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await v1(key, 'GET', '/v1/test-helpers/clock')).body.offset_seconds).toBe(0);

  // a custom amount: 20 minutes expires nothing yet
  await form.getByRole('textbox', { name: 'Amount' }).fill('20');
  await form.getByRole('combobox', { name: 'Unit' }).selectOption('minutes');
  await form.getByRole('button', { name: 'Advance…' }).click();
  const twenty = page.getByRole('dialog', { name: 'Advance the clock by 20 minutes?' });
  await expect(twenty.getByTestId('advance-effects')).toHaveText(
    'Nothing waits on the clock: no open session expires, no refund finishes and no webhook retry comes due.',
  );
  await twenty.getByRole('button', { name: 'Advance 20 minutes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Clock advanced by 20 minutes.' })).toBeVisible();
  await expect(page.getByTestId('sandbox-time')).toContainText('(+0 h 20 min)');

  await form.getByRole('button', { name: '+1 hour' }).click();
  await page
    .getByRole('dialog', { name: 'Advance the clock by 1 hour?' })
    .getByRole('button', { name: 'Advance 1 hour' })
    .click();
  await expect(page.getByTestId('test-clock-offset')).toHaveText('1 hour 20 minutes');
  const banner = page.getByTestId('sandbox-time');
  await expect(banner).toContainText(/^Sandbox time: \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M .+ \(\+1 h 20 min\)$/);
  await expectAccessible(page);
  await screenshotBoth(page, 'test-clock-advanced');

  // made on the advanced clock a moment ago: "just now" wherever it is listed
  const paid = await createSessionWith(key, { order_reference: 'order-after-advance' });
  expect(
    (
      await v1(key, 'POST', `/v1/test-helpers/checkout-sessions/${paid.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      })
    ).status,
  ).toBe(200);
  await openNav(page, 'Home');
  await expect(banner).toContainText('(+1 h 20 min)');
  const recent = page.getByRole('table', { name: 'Recent payments' });
  await expect(recent.getByRole('row').filter({ hasText: 'order-after-advance' })).toContainText('just now');
  await expect(page.locator('main')).not.toContainText(/in \d+ minutes/);
  await screenshotBoth(page, 'home-sandbox-time');

  // the sessions' expiry, written by the worker at the clock's time: not "in 80 minutes"
  await expect(async () => {
    expect((await v1(key, 'GET', `/v1/checkout-sessions/${open.id}`)).body.status).toBe('expired');
    expect((await v1(key, 'GET', `/v1/checkout-sessions/${left.id}`)).body.status).toBe('expired');
  }).toPass({ timeout: 15_000 });
  await openNav(page, 'Events');
  await expect(banner).toBeVisible();
  const expired = page.getByRole('table', { name: 'Events' }).getByRole('row').filter({ hasText: 'expired' }).first();
  await expect(expired).toContainText(/just now|\d+ minutes? ago/);
  await expect(page.locator('main')).not.toContainText(/in \d+ minutes/);

  // and on a phone, the banner sits above the page's title
  await page.setViewportSize(PHONE);
  await openNav(page, 'Payments');
  await expect(banner).toBeVisible();
  const bannerBox = (await banner.boundingBox())!;
  const titleBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  expect(bannerBox.y).toBeLessThan(titleBox.y);
  await expectAccessible(page);
});
