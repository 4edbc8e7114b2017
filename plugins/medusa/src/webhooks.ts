import { MedusaError, PaymentActions } from '@medusajs/framework/utils';
import type { ProviderWebhookPayload, WebhookActionResult } from '@medusajs/framework/types';
import { verifyWebhook, type WebhookHeaders } from '@sandbox-payments/client';
import { toMajorUnits } from './money';

// Deliveries are signed per Standard Webhooks; the client's verifyWebhook checks the signature with the
// official package and refuses one more than 5 minutes old. Each event type becomes the action Medusa takes on the payment session named by
// the object's metadata (set when the provider made it) or, for sessions and payments, order_reference.

/** The metadata key the provider writes on every checkout session and refund request it makes. */
export const SESSION_METADATA_KEY = 'medusa_payment_session_id';

type EventObject = {
  object?: string;
  amount?: number;
  amount_captured?: number;
  currency?: string;
  order_reference?: string;
  capture_method?: string;
  metadata?: Record<string, string>;
  payment_metadata?: Record<string, string>;
};

export type SandboxEvent = { id: string; type: string; data: { object: EventObject } };

/** Verifies a delivery, or throws a MedusaError (a tampered, stale or unsigned one is never acted on). */
export function verifyDelivery(payload: ProviderWebhookPayload['payload'], secret: string): SandboxEvent {
  const raw = typeof payload.rawData === 'string' ? payload.rawData : Buffer.from(payload.rawData);
  try {
    return verifyWebhook(raw, headerValues(payload.headers), secret) as unknown as SandboxEvent;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, `Sandbox payments webhook refused: ${reason}`);
  }
}

/** The action for an event's type; refund outcomes carry their data though Medusa's payment flow acts on none. */
export function actionFor(event: SandboxEvent): WebhookActionResult {
  const object = event.data.object;
  const sessionId = object.metadata?.[SESSION_METADATA_KEY] ?? object.payment_metadata?.[SESSION_METADATA_KEY];
  if (!sessionId || object.amount === undefined || !object.currency) return { action: PaymentActions.NOT_SUPPORTED };
  const amount = (minor: number) => ({ session_id: sessionId, amount: toMajorUnits(minor, object.currency!) });
  switch (event.type) {
    case 'checkout_session.completed':
      // a manual-capture session completes with its payment authorized, not captured
      return object.capture_method === 'manual'
        ? { action: PaymentActions.AUTHORIZED, data: amount(object.amount) }
        : { action: PaymentActions.SUCCESSFUL, data: amount(object.amount) };
    case 'payment.authorized':
      return { action: PaymentActions.AUTHORIZED, data: amount(object.amount) };
    case 'payment.succeeded':
      return { action: PaymentActions.SUCCESSFUL, data: amount(object.amount_captured ?? object.amount) };
    case 'payment.failed':
      return { action: PaymentActions.FAILED, data: amount(object.amount) };
    case 'payment.canceled':
    case 'checkout_session.expired':
      return { action: PaymentActions.CANCELED, data: amount(object.amount) };
    default:
      // refund_request.* and refund.*: Medusa records a refund when it asks for one and has no action for
      // the sandbox's later outcome; the data still names the session for a subscriber of the merchant's
      return { action: PaymentActions.NOT_SUPPORTED, data: amount(object.amount) };
  }
}

/** The headers whose values are strings (or lists of them), as Node's request gives them. */
function headerValues(headers: Record<string, unknown>): WebhookHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(
      (entry): entry is [string, string | string[]] => typeof entry[1] === 'string' || Array.isArray(entry[1]),
    ),
  );
}
