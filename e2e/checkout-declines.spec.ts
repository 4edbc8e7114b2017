import { expect, test, type Page } from '@playwright/test';
import {
  createSession,
  DESKTOP,
  expectAccessible,
  MERCHANT_NAME,
  paymentPanel,
  payWithTestHelper,
  PHONE,
  screenshot,
  SHOP,
  shopRoutes,
  usdSession,
} from './support';

// A declined card is said where the customer is looking (under the card number, which takes the focus to try
// another) and announced; the last decline a checkout takes replaces the card form with the way back.

test.beforeEach(async ({ page }) => {
  await shopRoutes(page);
});

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}

test('a decline is announced under the card number, in view at 1280×800, with the focus on the number', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  const session = await createSession(usdSession({ payment_methods: ['card'] }));
  await page.goto(session.url);
  await fillCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Pay / }).click();

  const decline = paymentPanel(page).getByRole('alert');
  await expect(decline).toHaveText('Your card was declined. Nothing was paid — try another card.');
  const number = page.getByLabel('Card number');
  await expect(number).toBeFocused();
  await expect(number).toHaveAccessibleDescription('Your card was declined. Nothing was paid — try another card.');
  // right under the number, before the expiry: not below the test-card box, half under the fold
  const numberBox = (await number.boundingBox())!;
  const declineBox = (await decline.boundingBox())!;
  const expiryBox = (await page.getByLabel('Expiry (MM / YY)').boundingBox())!;
  expect(declineBox.y).toBeGreaterThan(numberBox.y);
  expect(declineBox.y).toBeLessThan(expiryBox.y);
  expect(declineBox.y + declineBox.height).toBeLessThan(DESKTOP.height);
  await screenshot(page, 'checkout-decline-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'checkout-decline-phone');
  await expectAccessible(page);
});

test('the last decline a checkout takes replaces the card form with the way back to the merchant', async ({ page }) => {
  const session = await createSession(usdSession({ payment_methods: ['card'] }));
  // nine declines already (the hosted page takes ten)
  for (let attempt = 1; attempt <= 9; attempt += 1)
    await payWithTestHelper(session.id, { payment_method: 'card', card_number: '4000000000000002' });

  await page.goto(session.url);
  await fillCard(page, '4000 0000 0000 9995');
  await page.getByRole('button', { name: /^Pay / }).click();

  const panel = paymentPanel(page);
  await expect(panel.getByRole('alert')).toContainText('This checkout can’t take more cards');
  await expect(panel.getByRole('alert')).toContainText('Your card has insufficient funds.');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  const back = panel.getByRole('link', { name: `Return to ${MERCHANT_NAME}` });
  await expect(back).toHaveAttribute('href', `${SHOP}/cart`);
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'checkout-declines-exhausted-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'checkout-declines-exhausted-phone');
  await expectAccessible(page);

  // coming back says the same at once, instead of a form that only fails on the next try
  await page.reload();
  await expect(panel).toContainText('This checkout can’t take more cards');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
});

test('at the limit a checkout that offers USDC still takes it', async ({ page }) => {
  const session = await createSession(usdSession());
  for (let attempt = 1; attempt <= 10; attempt += 1)
    await payWithTestHelper(session.id, { payment_method: 'card', card_number: '4000000000000002' });
  await page.goto(session.url);
  await expect(paymentPanel(page)).toContainText('This checkout can’t take more cards');
  await expect(paymentPanel(page)).toContainText('nothing more can be tried here but USDC');
  await page.getByRole('tab', { name: 'USDC' }).click();
  await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
  await page.getByRole('button', { name: 'Simulate transfer' }).click();
  await page.waitForURL(`${SHOP}/**`);
});
