import { afterEach, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import { createMerchant } from '@/lib/merchants/service';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { startWorker } from './worker';
import { contextOf } from '@/test/context';

// The worker loop's shutdown, as SIGTERM triggers it: what the worker has claimed goes back to the queue.

vi.hoisted(() => {
  // the receiver listens on 127.0.0.1
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
});

let receiver: TestReceiver | undefined;
afterEach(() => receiver?.close());

it('stopping mid-send releases the webhook delivery it claimed, due again at once for another worker', async () => {
  receiver = await startTestReceiver(() => ({ status: 200, hang: true }));
  const client = await db();
  const merchant = await createMerchant(client, { name: 'Shutdown Shop' });
  await createWebhookEndpoint(
    contextOf(client, merchant.id),
    { url: receiver.url, events: ['*'] },
    { allowPrivateUrls: true },
  );
  const eventId = await emitEvent(client, merchant.id, 'payment.succeeded', { id: 'pay_1' });

  const worker = startWorker();
  await receiver.waitFor(1);
  await worker.stop();

  const delivery = await client.webhookDelivery.findFirstOrThrow({ where: { eventId }, include: { attempts: true } });
  expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
  expect(delivery.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
  expect(delivery.attempts).toMatchObject([
    { attempt: 1, responseStatus: null, error: 'interrupted: the worker shut down mid-send' },
  ]);
});
