import { expect, test } from '@playwright/test';
import {
  cadSession,
  createSession,
  getSession,
  MERCHANT_NAME,
  paymentPanel,
  paymentsOf,
  SHOP,
  shopRoutes,
  usdSession,
} from './support';

// Stories of customers paying without a card: USDC on USD sessions, Interac e-Transfer on CAD sessions.

test.beforeEach(async ({ page }) => {
  await shopRoutes(page);
});

test('a customer pays a USD session in USDC', async ({ page }) => {
  const session = await createSession(usdSession());
  await page.goto(session.url);
  await page.getByRole('tab', { name: 'USDC' }).click();

  const panel = page.getByRole('tabpanel', { name: 'USDC' });
  await expect(panel.getByText('37.50 USDC', { exact: true })).toBeVisible();
  await expect(panel.getByText('Ethereum (sandbox)')).toBeVisible();
  const address = await panel.locator('code').textContent();
  expect(address).toMatch(/^0x[0-9a-f]{40}$/);
  await expect(panel.getByText('A sandbox address that nobody owns')).toBeVisible();
  // the QR code is an image drawn on the server, not fetched from anywhere
  const qr = panel.getByRole('img', { name: `QR code of the deposit address ${address}` });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);

  // the same session shows the same address after a reload
  await page.reload();
  await page.getByRole('tab', { name: 'USDC' }).click();
  await expect(page.getByRole('tabpanel', { name: 'USDC' }).locator('code')).toHaveText(address!);
  await page.getByLabel('E-mail', { exact: true }).fill('satoshi@example.com');

  await page.getByRole('button', { name: 'Simulate transfer' }).click();
  await expect(page.getByRole('status')).toContainText('Payment received');
  await page.waitForURL(`${SHOP}/**`);
  expect(new URL(page.url()).searchParams.get('session_id')).toBe(session.id);

  const [payment] = await paymentsOf(session.order_reference);
  expect(payment.status).toBe('succeeded');
  expect(payment.payment_method).toBe('usdc');
  expect(payment.payment_method_details.usdc.payer_address).toMatch(/^0x[0-9a-f]{40}$/);
});

test('the method tabs follow the session: card and Interac for CAD, and only what the merchant offers', async ({
  page,
}) => {
  const cad = await createSession(cadSession());
  await page.goto(cad.url);
  await expect(page.getByRole('tab')).toHaveText(['Card', 'Interac']);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Pay ${MERCHANT_NAME}`);
  await expect(page.getByText('CA$48.90').first()).toBeVisible();

  // the arrow keys move between tabs, as the ARIA tabs pattern says
  await page.getByRole('tab', { name: 'Card' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Interac' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Interac' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('E-mail')).toBeVisible();

  const cardOnly = await createSession(usdSession({ payment_methods: ['card'] }));
  await page.goto(cardOnly.url);
  await expect(page.getByRole('tab')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Pay with Card' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toBeVisible();
});

test('a customer approves an Interac e-Transfer on a CAD session', async ({ page }) => {
  const session = await createSession(cadSession());
  await page.goto(session.url);
  await page.getByRole('tab', { name: 'Interac' }).click();

  // nothing is sent until the e-mail and bank are given
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Enter your e-mail address.');
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await expect(page.getByLabel('Bank')).toHaveAccessibleDescription('Choose your bank.');

  await page.getByLabel('E-mail').fill('marie.tremblay@example.ca');
  await page.getByLabel('Bank').selectOption('Desjardins');
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page.getByRole('status')).toContainText('Payment received');
  await page.waitForURL(`${SHOP}/**`);
  expect(new URL(page.url()).searchParams.get('session_id')).toBe(session.id);

  const [payment] = await paymentsOf(session.order_reference);
  expect(payment).toMatchObject({ status: 'succeeded', payment_method: 'interac' });
  expect(payment.payment_method_details).toEqual({ interac: { email_masked: 'm•••@example.ca', bank: 'Desjardins' } });
});

test('a customer declines an Interac e-Transfer, and the checkout stays open to try again', async ({ page }) => {
  const session = await createSession(cadSession());
  await page.goto(session.url);
  await page.getByRole('tab', { name: 'Interac' }).click();
  await page.getByLabel('E-mail').fill('marie.tremblay@example.ca');
  await page.getByLabel('Bank').selectOption('RBC Royal Bank');

  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(paymentPanel(page).getByRole('alert')).toHaveText(
    'The Interac e-Transfer was declined, so nothing was paid. You can try again or choose another way to pay.',
  );
  expect((await getSession(session.id)).status).toBe('open');
  const [declined] = await paymentsOf(session.order_reference);
  expect(declined).toMatchObject({ status: 'failed', failure_code: 'interac_declined' });

  await page.getByRole('button', { name: 'Approve payment' }).click();
  await page.waitForURL(`${SHOP}/**`);
  expect((await getSession(session.id)).status).toBe('complete');
});
