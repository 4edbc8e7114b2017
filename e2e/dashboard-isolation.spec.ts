import { expect, test, type Page } from '@playwright/test';
import {
  approveWebsite,
  createKey,
  createSessionWith,
  newMerchant,
  payByCard,
  screenshotBoth,
  signUp,
  v1,
} from './dashboard-support';

// Two merchants on one service: B, signed in, opens the addresses of A's payment, session, event and
// webhook endpoint, and gets the same 404 as for an id that does not exist; A's things never show in B's lists.

async function expectNotFound(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
}

test('a user of merchant B cannot open or find anything of merchant A', async ({ browser }) => {
  test.setTimeout(90_000);
  const contextA = await browser.newContext();
  const pageA = await contextA.newPage();
  await signUp(pageA, newMerchant('Shop A'));
  await approveWebsite(pageA, 'localhost:4000');
  const key = await createKey(pageA);
  const session = await createSessionWith(key);
  await payByCard(pageA, session.url);
  const { body: paid } = await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`);
  await pageA.goto('/dashboard/developers/webhooks');
  await pageA.getByRole('button', { name: 'Add endpoint' }).click();
  await pageA
    .getByRole('dialog', { name: 'Add a webhook endpoint' })
    .getByLabel('Endpoint URL')
    .fill('https://hooks.example.com/a');
  await pageA
    .getByRole('dialog', { name: 'Add a webhook endpoint' })
    .getByRole('button', { name: 'Add endpoint' })
    .click();
  await pageA
    .getByRole('dialog', { name: 'Your endpoint’s signing secret' })
    .getByRole('button', { name: 'Done' })
    .click();
  await pageA.getByRole('link', { name: 'https://hooks.example.com/a' }).click();
  await pageA.waitForURL('**/dashboard/developers/webhooks/we_*');
  const endpointUrl = new URL(pageA.url()).pathname;
  const { body: events } = await v1(key, 'GET', '/v1/events?type=payment.succeeded');
  const eventId = events.data[0].id as string;

  // A sees their own pages
  for (const path of [
    `/dashboard/payments/${paid.payment_id}`,
    `/dashboard/checkout-sessions/${session.id}`,
    `/dashboard/developers/events/${eventId}`,
    endpointUrl,
  ]) {
    expect((await pageA.goto(path))?.status(), path).toBe(200);
  }

  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await signUp(pageB, newMerchant('Shop B'));
  await expectNotFound(pageB, `/dashboard/payments/${paid.payment_id}`);
  await screenshotBoth(pageB, 'not-found');
  await expectNotFound(pageB, `/dashboard/checkout-sessions/${session.id}`);
  await expectNotFound(pageB, `/dashboard/developers/events/${eventId}`);
  await expectNotFound(pageB, endpointUrl);
  await expectNotFound(pageB, '/dashboard/payments/pay_000000000000000000000000');

  // searching B's lists for A's ids finds nothing
  await pageB.goto(`/dashboard/payments?q=${paid.payment_id}`);
  await expect(pageB.getByText('No payments match these filters')).toBeVisible();
  await pageB.goto(`/dashboard/checkout-sessions?q=${session.id}`);
  await expect(pageB.getByText('No checkout sessions match')).toBeVisible();
  await pageB.goto('/dashboard/developers/events');
  await expect(pageB.getByText('No events yet')).toBeVisible();

  await contextA.close();
  await contextB.close();
});
