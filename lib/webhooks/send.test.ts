import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './send';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';

// The delivery connects to the addresses the URL check approved, not to whatever DNS answers later.

let receiver: TestReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
});

describe('sendWebhook', () => {
  it('connects to the checked address, whatever the name resolves to now', async () => {
    receiver = await startTestReceiver(() => ({ status: 200, body: 'pinned' }));
    const port = new URL(receiver.url).port;
    // .invalid never resolves (RFC 6761): only the pinned address can make this reach the receiver
    const url = new URL(`http://hooks.invalid:${port}/in`);
    const request = { url, headers: { 'webhook-id': 'evt_1' }, body: '{"ok":true}' };

    expect(await sendWebhook({ ...request, addresses: null })).toMatchObject({
      status: null,
      error: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)/),
    });
    const pinned = await sendWebhook({ ...request, addresses: [{ address: '127.0.0.1', family: 4 }] });
    expect(pinned).toMatchObject({ status: 200, error: null, responseExcerpt: 'pinned' });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      body: '{"ok":true}',
      headers: { host: `hooks.invalid:${port}`, 'webhook-id': 'evt_1' },
    });
  });
});
