import { Webhook } from 'standardwebhooks';

// Deliveries are signed per Standard Webhooks; the official package checks the signature and refuses one
// more than 5 minutes old.

type EventObject = {
  id?: string;
  object?: string;
  metadata?: Record<string, string>;
  payment_metadata?: Record<string, string>;
};

export type SandboxEvent = { id: string; type: string; data: { object: EventObject } };

/** Verifies a delivery's raw body against its headers, or throws (a tampered, stale or unsigned one is never acted on). */
export function verifyDelivery(rawBody: Buffer, headers: Record<string, unknown>, secret: string): SandboxEvent {
  return new Webhook(secret).verify(rawBody.toString('utf8'), headerStrings(headers)) as SandboxEvent;
}

function headerStrings(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string') out[name.toLowerCase()] = value;
    else if (Array.isArray(value)) out[name.toLowerCase()] = value.join(' ');
  return out;
}
