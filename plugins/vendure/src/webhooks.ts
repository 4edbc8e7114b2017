import { verifyWebhook, type WebhookHeaders } from '@sandbox-payments/client';

// Deliveries are signed per Standard Webhooks; the client's verifyWebhook checks the signature with the
// official package and refuses one more than 5 minutes old.

type EventObject = {
  id?: string;
  object?: string;
  metadata?: Record<string, string>;
  payment_metadata?: Record<string, string>;
};

export type SandboxEvent = { id: string; type: string; data: { object: EventObject } };

/** Verifies a delivery's raw body against its headers, or throws (a tampered, stale or unsigned one is never acted on). */
export function verifyDelivery(rawBody: Buffer, headers: Record<string, unknown>, secret: string): SandboxEvent {
  return verifyWebhook(rawBody, headerValues(headers), secret) as unknown as SandboxEvent;
}

/** The headers whose values are strings (or lists of them), as Node's request gives them. */
function headerValues(headers: Record<string, unknown>): WebhookHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(
      (entry): entry is [string, string | string[]] => typeof entry[1] === 'string' || Array.isArray(entry[1]),
    ),
  );
}
