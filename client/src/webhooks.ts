import { Webhook } from 'standardwebhooks';
import { SandboxSignatureVerificationError } from './errors.js';
import type { Event } from './types.js';

// Webhook deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature);
// the official `standardwebhooks` package checks the signature and refuses one more than 5 minutes old.

/** A Fetch API Headers, or Node's IncomingHttpHeaders / any plain object of header names to values. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function lowerCased(headers: WebhookHeaders): Record<string, string> {
  const entries: [string, string][] = [];
  if (headers instanceof Headers) headers.forEach((value, name) => entries.push([name, value]));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) entries.push([name.toLowerCase(), Array.isArray(value) ? value.join(' ') : value]);
  return Object.fromEntries(entries);
}

/**
 * Checks a delivery and answers its event, typed as the union of every event (narrow on `event.type`).
 * `rawBody` must be the body exactly as received: re-serialized JSON would not match the signature.
 * Throws SandboxSignatureVerificationError when the signature, timestamp or headers do not check out.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): Event {
  const payload = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let verified: unknown;
  try {
    verified = new Webhook(secret).verify(payload, lowerCased(headers));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SandboxSignatureVerificationError(
      `Webhook not verified: ${reason}`,
      { type: 'signature_verification_error' },
      { cause: error },
    );
  }
  // signed by the API with the endpoint's secret: the body is one of the events the document describes
  return verified as Event;
}
