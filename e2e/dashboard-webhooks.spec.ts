import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
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
import { DESKTOP, expectAccessible, PHONE } from './support';

// A merchant's server receives signed events: the endpoint is added in the dashboard, its secret shown
// once verifies what arrives, and every delivery, failure and resend is visible and actionable.

let receiver: TestReceiver;
let failing = false;

test.beforeEach(async () => {
  failing = false;
  receiver = await startTestReceiver(() =>
    failing ? { status: 500, body: 'receiver is down' } : { status: 200, body: 'thanks' },
  );
});

test.afterEach(async () => {
  await receiver.close();
});

test('a merchant adds a webhook endpoint, verifies a delivery with its secret, and resends a failed one', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newMerchant('Hook Shop'));
  await approveWebsite(page, 'localhost:4000');
  const key = await createKey(page);

  await page.goto('/dashboard/developers/webhooks');
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  await screenshotBoth(page, 'webhooks-empty');

  // add the endpoint: a bad URL first, then the receiver
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const form = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await form.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(form.getByLabel('Endpoint URL')).toHaveAccessibleDescription('This URL must use http or https');
  await form.getByLabel('Endpoint URL').fill(receiver.url);
  await form.getByLabel('Description (optional)').fill('Order system');
  await screenshotBoth(page, 'webhooks-add-endpoint');
  await form.getByRole('button', { name: 'Add endpoint' }).click();

  const reveal = page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
  const secret = (await reveal.getByTestId('secret-value').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(reveal.getByText('You can reveal it again on the endpoint’s page')).toBeVisible();
  await screenshotBoth(page, 'webhooks-secret');
  await reveal.getByRole('button', { name: 'Done' }).click();

  // the list, then the endpoint's page
  const row = page.getByRole('row').filter({ hasText: receiver.url });
  await expect(row).toContainText('All events');
  await expect(row).toContainText('Enabled');
  await screenshotBoth(page, 'webhooks');
  await row.getByRole('link').click();
  await expect(page.getByText('No deliveries yet')).toBeVisible();

  // a test event arrives, signed with that secret; its answer is shown without moving the page's
  // header, and the test stays listed among the deliveries (it names no event and is not resent)
  const title = page.getByRole('heading', { level: 1 });
  const titleBefore = await title.boundingBox();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText(/^Delivered: your endpoint answered 200 in \d+ ms\.$/)).toBeVisible();
  expect(await title.boundingBox()).toEqual(titleBefore);
  const [testEvent] = await receiver.waitFor(1);
  const verified = new Webhook(secret).verify(testEvent.body, testEvent.headers) as { type: string };
  expect(verified.type).toBe('webhook_endpoint.test');
  const testRow = page
    .getByRole('table', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ hasText: 'webhook_endpoint.test' });
  await expect(testRow).toContainText('Test from the dashboard');
  await expect(testRow).toContainText('Succeeded');
  await expect(testRow).toContainText('200');
  await expect(testRow.getByRole('button', { name: 'Resend' })).toHaveCount(0);

  // a payment makes real deliveries, shown with their answer
  const session = await createSessionWith(key);
  await payByCard(page, session.url);
  await receiver.waitFor(3);
  for (const delivery of receiver.received.slice(1)) new Webhook(secret).verify(delivery.body, delivery.headers);
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole('row').filter({ hasText: 'payment.succeeded' })).toContainText('Succeeded', {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  const paid = deliveries.getByRole('row').filter({ hasText: 'payment.succeeded' });
  await expect(paid).toContainText('200');
  await expect(deliveries.getByRole('row').filter({ hasText: 'checkout_session.completed' })).toContainText(
    'Succeeded',
  );

  // the receiver goes down: a refund's event is retried with backoff, every attempt logged
  failing = true;
  const { body: paidSession } = await v1(key, 'GET', `/v1/checkout-sessions/${session.id}`);
  const refund = await v1(key, 'POST', '/v1/refund-requests', { payment_id: paidSession.payment_id, amount: 500 });
  expect(refund.status).toBe(201);
  const created = deliveries.getByRole('row').filter({ hasText: 'refund_request.created' });
  const attempts = page.getByRole('list', { name: 'Attempts of refund_request.created' });
  await expect(async () => {
    await page.reload();
    await created.getByRole('button', { name: /attempts: show$/ }).click({ timeout: 1000 });
    await expect(attempts.getByText('#3')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(created).toContainText('Pending');
  await expect(attempts.getByText('receiver is down').first()).toBeVisible();
  await expect(attempts.getByText('answered 500').first()).toBeVisible();
  // the attempts open below the row, as wide as the table, not squeezed into the event's column
  const attemptsWidth = (await attempts.boundingBox())!.width;
  expect(attemptsWidth).toBeGreaterThan(0.9 * (await deliveries.boundingBox())!.width);
  await expectAccessible(page);
  await screenshotBoth(page, 'webhook-endpoint');
  await page.setViewportSize(PHONE);
  await page.getByRole('list', { name: 'Deliveries' }).getByText('Attempts').first().click();
  await expectAccessible(page);
  await page.setViewportSize(DESKTOP);

  // it comes back; a resend delivers
  failing = false;
  await created.getByRole('button', { name: 'Resend' }).click();
  await expect(created.getByText('Resent: answered 200.')).toBeVisible();
  await expect(created).toContainText('Succeeded');

  // the events list, and the event with its delivery
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'payment.succeeded' })).toContainText(
    'Payment of US$37.50 succeeded',
  );
  await screenshotBoth(page, 'events');
  await page.getByRole('link', { name: 'Payment of US$37.50 succeeded' }).click();
  await expect(page.getByRole('table', { name: 'Deliveries' })).toContainText(receiver.url);
  await expect(page.getByText('"type": "payment.succeeded"')).toBeVisible();
  await screenshotBoth(page, 'event');

  // rotating shows a new secret once; deleting stops deliveries
  await page.goBack();
  await page.goBack();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page
    .getByRole('dialog', { name: 'Rotate the signing secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  const rotated = page.getByRole('dialog', { name: 'Your new signing secret' });
  const newSecret = (await rotated.getByTestId('secret-value').textContent())!.trim();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('The previous secret also signs until')).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this endpoint?' })
    .getByRole('button', { name: 'Delete endpoint' })
    .click();
  await page.waitForURL('**/dashboard/developers/webhooks');
  await expect(page.getByText('No endpoints yet')).toBeVisible();
});
