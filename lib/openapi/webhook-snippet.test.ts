import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureHeaders } from '@/lib/webhooks/signature';
import { WEBHOOK_ROUTE_SNIPPET } from './snippets';

// The verification route /docs shows, run as a merchant would: written to a file, imported, and sent
// deliveries signed exactly as the worker signs them.

const secret = generateWebhookSecret();
const folder = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test', 'docs-snippet');
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `route-${process.pid}.ts`);
  fs.writeFileSync(file, WEBHOOK_ROUTE_SNIPPET);
  process.env.SANDBOX_WEBHOOK_SECRET = secret;
  ({ POST } = await import(/* @vite-ignore */ file));
});
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function delivery(body: string, options: { signWith?: string; timestamp?: number; sentBody?: string } = {}) {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers = signatureHeaders([options.signWith ?? secret], `evt_${'x'.repeat(24)}`, timestamp, body);
  return new Request('http://localhost:4000/api/webhooks', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: options.sentBody ?? body,
  });
}

const event = JSON.stringify({
  id: `evt_${'x'.repeat(24)}`,
  object: 'event',
  type: 'checkout_session.completed',
  created_at: new Date().toISOString(),
  data: { object: {} },
});

describe('the webhook verification snippet of /docs', () => {
  it('accepts a delivery signed with its secret', async () => {
    expect((await POST(delivery(event))).status).toBe(204);
  });

  it('accepts a delivery signed with the new and the old secret while a rotation runs', async () => {
    const headers = signatureHeaders(
      [generateWebhookSecret(), secret],
      `evt_${'y'.repeat(24)}`,
      Math.floor(Date.now() / 1000),
      event,
    );
    expect(
      (await POST(new Request('http://localhost:4000/api/webhooks', { method: 'POST', headers, body: event }))).status,
    ).toBe(204);
  });

  it.each([
    ['a changed body', { sentBody: event.replace('completed', 'expired') }],
    ['another secret', { signWith: generateWebhookSecret() }],
    ['a signature ten minutes old', { timestamp: Math.floor(Date.now() / 1000) - 600 }],
  ])('refuses %s', async (_case, options) => {
    expect((await POST(delivery(event, options))).status).toBe(400);
  });
});
