import { expect, test } from '@playwright/test';
import { newMerchant, PASSWORD, screenshotBoth, signIn, signUpThroughForm } from './dashboard-support';
import { expectAccessible } from './support';

// Getting in and out: sign-up rules, a wrong password, a locked account after repeated guesses,
// session cookies that scripts cannot read, and sign-out.

test('the dashboard asks a visitor to sign in', async ({ page }) => {
  await page.goto('/dashboard/payments');
  // the sign-in page remembers where the visitor was going
  await page.waitForURL('**/login?callbackUrl=%2Fdashboard%2Fpayments');
  await expect(page.getByRole('heading', { name: 'Sign in to your dashboard' })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, 'login');
});

test('sign-up explains what it refuses and keeps what was typed', async ({ page }) => {
  const taken = newMerchant('Taken');
  await signUpThroughForm(page, taken);
  await page.context().clearCookies();

  await page.goto('/signup');
  await page.getByLabel('Business name').fill('Second Shop');
  await page.getByLabel('E-mail').fill(taken.email);
  await page.getByLabel('Password').fill('short');
  // the browser's own check stops a too-short password first; the server's answer is tested without it
  await page.getByLabel('Password').evaluate((input: HTMLInputElement) => input.removeAttribute('minlength'));
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription('Use at least 10 characters.');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  // the answer does not confirm to a stranger that the address has an account
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription(
    'This e-mail cannot be used for a new account. If it is yours, sign in instead.',
  );
  await expect(page.getByLabel('Business name')).toHaveValue('Second Shop');
  await expectAccessible(page);
  await screenshotBoth(page, 'signup-errors');
});

test('a wrong password is refused; five guesses from one address shut that address out of the account for 15 minutes, even with the right one', async ({
  page,
}) => {
  const merchant = newMerchant('Locked');
  await signUpThroughForm(page, merchant);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByLabel('E-mail').fill(merchant.email);
  for (let guess = 1; guess <= 5; guess += 1) {
    await page.getByLabel('Password').fill(`wrong guess ${guess}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'That e-mail and password do not match an account.',
    );
    await expect(page.getByLabel('E-mail')).toHaveValue(merchant.email);
  }
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText(
    /^Too many sign-in attempts\. For your security, wait 1[45] minutes and try again\.$/,
  );
  await screenshotBoth(page, 'login-throttled');
  expect(page.url()).toContain('/login');
});

test('guesses from other addresses slow an account down but never lock its owner out', async ({ page }) => {
  const merchant = newMerchant('Targeted');
  await signUpThroughForm(page, merchant);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByLabel('E-mail').fill(merchant.email);
  // an attacker guesses from many addresses (this server trusts loopback as its proxy, so the header counts)
  for (let guess = 1; guess <= 8; guess += 1) {
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `203.0.113.${guess}` });
    await page.getByLabel('Password').fill(`spray ${guess}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'That e-mail and password do not match an account.',
    );
  }
  // the owner, from their own address, gets in
  await page.setExtraHTTPHeaders({});
  await page.getByLabel('Password').fill(merchant.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
});

test('signing out ends the session everywhere: a copy of the old cookie opens nothing', async ({ page, browser }) => {
  const merchant = newMerchant('Shared Laptop');
  await signUpThroughForm(page, merchant);
  const copied = (await page.context().cookies()).filter((entry) => entry.name.includes('next-auth'));
  await page.getByRole('complementary').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');

  const elsewhere = await browser.newContext();
  await elsewhere.addCookies(copied);
  const other = await elsewhere.newPage();
  await other.goto('/dashboard');
  await other.waitForURL('**/login');
  await elsewhere.close();
});

test('the session cookie is HttpOnly and SameSite=Lax, and signing out ends it', async ({ page }) => {
  const merchant = newMerchant('Cookie Jar');
  await signUpThroughForm(page, merchant);
  const cookie = (await page.context().cookies()).find((entry) => entry.name.endsWith('next-auth.session-token'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('session-token');

  await page.getByRole('complementary').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await page.goto('/dashboard');
  await page.waitForURL('**/login');

  await signIn(page, merchant);
  await expect(page.getByRole('complementary').getByText(merchant.email)).toBeVisible();
});
