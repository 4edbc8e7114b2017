import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureHeaders, signPayload } from './signature';

// Our signatures held to the official Standard Webhooks library, which is what merchants verify with.

const body = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'payment.succeeded',
  data: { object: { amount: 3750 } },
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('signing, verified by the standardwebhooks package', () => {
  it('verifies a signed body and returns the parsed payload', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders([secret], 'evt_1', nowSeconds(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('produces the same signature as the library itself', () => {
    const secret = generateWebhookSecret();
    const at = nowSeconds();
    expect(signPayload(secret, 'evt_1', at, body)).toBe(new Webhook(secret).sign('evt_1', new Date(at * 1000), body));
  });

  it('is rejected for a tampered body', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders([secret], 'evt_1', nowSeconds(), body);
    expect(() => new Webhook(secret).verify(body.replace('3750', '1'), headers)).toThrow(/No matching signature/);
  });

  it('is rejected for another message id or another secret', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders([secret], 'evt_1', nowSeconds(), body);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow(
      /No matching signature/,
    );
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('is rejected when the timestamp is older than five minutes, even with a valid signature', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders([secret], 'evt_1', nowSeconds() - 6 * 60, body);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it('is rejected when the timestamp is moved, since the timestamp is signed', () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders([secret], 'evt_1', nowSeconds() - 60, body);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(nowSeconds()) })).toThrow(
      /No matching signature/,
    );
  });

  it('signs with every secret given, so the old and the new secret both verify during a rotation', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signatureHeaders([current, previous], 'evt_1', nowSeconds(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
