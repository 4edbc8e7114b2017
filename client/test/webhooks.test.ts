import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { Sandbox, SandboxSignatureVerificationError, verifyWebhook, type Event } from '../src/index';
import { sessionBody, testClient } from './support/client';

// webhooks.verify on real deliveries: the running server's worker POSTs signed events to a receiver on
// 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE_URLS in test/setup/next-server.ts).

let sandbox: Sandbox;
let receiver: TestReceiver;

beforeAll(async () => {
  ({ sandbox } = await testClient());
  receiver = await startTestReceiver();
});
afterAll(() => receiver.close());

describe('webhooks.verify', () => {
  it('verifies real deliveries into typed events, and refuses tampered ones', async () => {
    const endpoint = await sandbox.webhookEndpoints.create({ url: receiver.url, events: ['*'] });
    const session = await sandbox.checkoutSessions.create(sessionBody());
    const payment = await sandbox.testHelpers.checkoutSessions.pay(session.id, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    const deliveries = await receiver.waitFor(2);

    const events: Event[] = deliveries.map((delivery) =>
      sandbox.webhooks.verify(delivery.body, delivery.headers, endpoint.secret),
    );
    expect(events.map((event) => event.type).sort()).toEqual(['checkout_session.completed', 'payment.succeeded']);
    for (const event of events) {
      expect(await sandbox.events.retrieve(event.id)).toEqual(event);
      if (event.type === 'payment.succeeded') expect(event.data.object.id).toBe(payment.id);
      if (event.type === 'checkout_session.completed') expect(event.data.object.id).toBe(session.id);
    }
    // a Fetch API Headers and a byte body do too
    const [first] = deliveries;
    expect(verifyWebhook(new TextEncoder().encode(first.body), new Headers(first.headers), endpoint.secret).id).toBe(
      events[0].id,
    );

    const tampered = first.body.replace(/"amount":\d+/, '"amount":1');
    expect(tampered).not.toBe(first.body);
    const refusals = [
      () => sandbox.webhooks.verify(tampered, first.headers, endpoint.secret),
      () => sandbox.webhooks.verify(first.body, { ...first.headers, 'webhook-id': 'evt_other' }, endpoint.secret),
      () => sandbox.webhooks.verify(first.body, { ...first.headers, 'webhook-signature': 'v1,AAAA' }, endpoint.secret),
      () =>
        sandbox.webhooks.verify(first.body, first.headers, `whsec_${Buffer.from('another secret').toString('base64')}`),
      () => sandbox.webhooks.verify(first.body, {}, endpoint.secret),
    ];
    for (const refusal of refusals) {
      expect(refusal).toThrow(SandboxSignatureVerificationError);
    }
    try {
      refusals[0]();
    } catch (error) {
      expect(error).toMatchObject({ type: 'signature_verification_error' });
    }
  });
});
