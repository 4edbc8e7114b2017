import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): the official verifiers accept exactly this, so merchants can
// verify with any of them. Secrets are `whsec_` + base64 of random bytes; the HMAC key is those bytes.

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,<base64 HMAC-SHA256 over "{id}.{timestamp}.{body}">` for one secret. */
export function signPayload(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The three signature headers. Every secret given signs, space-separated, so receivers that still hold
 * the secret from before a rotation keep verifying until it expires.
 */
export function signatureHeaders(
  secrets: string[],
  messageId: string,
  timestampSeconds: number,
  body: string,
): WebhookSignatureHeaders {
  if (secrets.length === 0) throw new Error('at least one secret signs a webhook');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signPayload(secret, messageId, timestampSeconds, body)).join(' '),
  };
}
