import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureHeaders } from '@/lib/webhooks/signature';
import { VERIFY_WEBHOOK_SNIPPET } from './snippets';

// The verification without the library that /docs#webhooks and docs/webhooks.md show, run against deliveries
// signed exactly as the worker signs them.

const secret = generateWebhookSecret();
const folder = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test', `verify-snippet-${process.pid}`);
let verifyWebhook: (body: string, headers: Headers, secret: string) => boolean;

beforeAll(async () => {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'verify-webhook.ts');
  fs.writeFileSync(file, VERIFY_WEBHOOK_SNIPPET);
  ({ verifyWebhook } = await import(/* @vite-ignore */ file));
});
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const body = JSON.stringify({ id: `evt_${'x'.repeat(24)}`, object: 'event', type: 'refund.completed' });
const now = () => Math.floor(Date.now() / 1000);
const signed = (secrets: string[], timestamp = now()) =>
  new Headers(signatureHeaders(secrets, `evt_${'x'.repeat(24)}`, timestamp, body));

describe('the webhook verification without the library', () => {
  it('is at most a dozen lines of code', () => {
    expect(VERIFY_WEBHOOK_SNIPPET.trim().split('\n').length).toBeLessThanOrEqual(14);
  });

  it('accepts a delivery, and one signed by a rotated secret beside the new one', () => {
    expect(verifyWebhook(body, signed([secret]), secret)).toBe(true);
    expect(verifyWebhook(body, signed([generateWebhookSecret(), secret]), secret)).toBe(true);
  });

  it('refuses a changed body, another secret, and a signature ten minutes old', () => {
    expect(verifyWebhook(body.replace('completed', 'failed'), signed([secret]), secret)).toBe(false);
    expect(verifyWebhook(body, signed([generateWebhookSecret()]), secret)).toBe(false);
    expect(verifyWebhook(body, signed([secret], now() - 600), secret)).toBe(false);
  });

  it('needs the key base64-decoded: the characters after whsec_ as they are do not sign it', () => {
    const headers = signed([secret]);
    const [id, timestamp] = [headers.get('webhook-id'), headers.get('webhook-timestamp')];
    const asText = createHmac('sha256', secret.slice('whsec_'.length))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64');
    expect(headers.get('webhook-signature')).not.toBe(`v1,${asText}`);
  });

  it('is the code docs/webhooks.md shows, where the README points', () => {
    expect(fs.readFileSync('docs/webhooks.md', 'utf8')).toContain(VERIFY_WEBHOOK_SNIPPET);
    expect(fs.readFileSync('README.md', 'utf8')).toContain('[docs/webhooks.md](docs/webhooks.md)');
  });
});
