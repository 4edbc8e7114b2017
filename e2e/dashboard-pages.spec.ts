import { expect, test } from '@playwright/test';
import { expectAccessible, PHONE } from './support';
import { newMerchant, openNav, screenshotBoth, signUp } from './dashboard-support';

// Every page of a new account says what it will hold and how to fill it, passes the accessibility
// check, and can be reached from the navigation on a phone.

const EMPTY_PAGES = [
  { nav: 'Payments', heading: 'Payments', empty: 'No payments yet', shot: 'payments-empty' },
  { nav: 'Refunds', heading: 'Refunds', empty: 'No refunds yet', shot: 'refunds-empty' },
  {
    nav: 'Checkout sessions',
    heading: 'Checkout sessions',
    empty: 'No checkout sessions yet',
    shot: 'checkout-sessions-empty',
  },
  { nav: 'API keys', heading: 'API keys', empty: 'No API keys yet', shot: 'api-keys-empty' },
  { nav: 'Webhooks', heading: 'Webhooks', empty: 'No endpoints yet', shot: 'webhooks-empty' },
  { nav: 'Events', heading: 'Events', empty: 'No events yet', shot: 'events-empty' },
  { nav: 'Logs', heading: 'Logs', empty: 'No API requests yet', shot: 'logs-empty' },
  { nav: 'Settings', heading: 'Settings', empty: 'No websites yet.', shot: 'settings-new-account' },
];

test('a new account’s pages are designed when empty and pass the accessibility check', async ({ page }) => {
  // every page of a new account through axe and shot at two sizes: over a minute on a busy 2-core machine
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Fresh Start'));
  await expectAccessible(page);
  for (const { nav, heading, empty, shot } of EMPTY_PAGES) {
    await openNav(page, nav);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(empty)).toBeVisible();
    await expectAccessible(page);
    await screenshotBoth(page, shot);
  }
  // a filter that matches nothing says so, differently from an empty account
  await page.goto('/dashboard/payments?status=failed&currency=CAD');
  await expect(page.getByText('No payments match these filters')).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('failed');
  await screenshotBoth(page, 'payments-filtered-empty');
});

test('on a phone the navigation opens from the menu and closes on arrival', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUp(page, newMerchant('Pocket Shop'));
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Dashboard' }).filter({ visible: true });
  await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await page.screenshot({
    path: `${process.env.SCREENSHOT_DIR ?? 'test-results/screenshots'}/dashboard-menu-phone.png`,
  });
  await expectAccessible(page);
  await menu.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
});

test('the sign-up page', async ({ page }) => {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create a sandbox account' })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, 'signup');
});
