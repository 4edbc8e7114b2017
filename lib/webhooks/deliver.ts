import { now } from '@/lib/clock';
import { inTransaction, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { findEventById } from '@/lib/events/repository';
import { serializeEvent } from '@/lib/events/serialize';
import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { newId } from '@/lib/ids';
import { describeError, log } from '@/lib/log';
import {
  claimDeliveryNow,
  claimDueDeliveries,
  finishDeliveryAttempt,
  findDeliveryWithEndpoint,
  insertAttempt,
  insertFinishedDelivery,
  type DeliveryClaim,
} from './repository';
import { retryDelayMs } from './retry-schedule';
import { isDelivered, sendWebhook, type SendOutcome } from './send';
import { signatureHeaders } from './signature';
import { checkWebhookUrl } from './url-policy';

// The webhook delivery job. A claim is one statement: it picks due deliveries with FOR UPDATE SKIP LOCKED
// and, in the same statement, numbers the attempt and leases the row by moving next_attempt_at past the
// send's timeout. Sending happens outside any transaction; then the attempt is logged and the delivery
// finished or rescheduled. So any number of workers share the queue without sending one attempt twice,
// and a worker that dies mid-send leaves a lease that runs out and the delivery is tried again.

const LEASE_SECONDS = 60;
const BATCH_SIZE = 20;
const USER_AGENT = 'SandboxPayments-Webhooks/1.0';

/** The type of the event the dashboard's "Send test event" sends. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

export type DeliveryOptions = {
  batchSize?: number;
  /** multiplies the retry schedule; WEBHOOK_RETRY_SCALE by default */
  retryScale?: number;
  /** WEBHOOKS_ALLOW_PRIVATE_URLS by default */
  allowPrivateUrls?: boolean;
  timeoutMs?: number;
  /** the worker's shutdown: in-flight sends stop and their deliveries are released for the next worker */
  signal?: AbortSignal;
};

/** Sends every due delivery it can claim, up to a batch; returns how many it attempted. */
export async function deliverDueWebhooks(database: Db, options: DeliveryOptions = {}): Promise<number> {
  if (options.signal?.aborted) return 0;
  const claims = await claimDueDeliveries(database, options.batchSize ?? BATCH_SIZE, LEASE_SECONDS);
  await Promise.all(
    claims.map((claim) =>
      attemptDelivery(database, claim, options).catch((error) =>
        // the lease runs out and another pass tries again
        log.error('webhook delivery attempt failed to run', {
          delivery_id: claim.id,
          attempt: claim.attempt,
          ...describeError(error),
        }),
      ),
    ),
  );
  return claims.length;
}

/**
 * A resend from the dashboard: a new attempt of this delivery now, whatever its state and even while a
 * worker's attempt is in flight (that one is still logged, but only the newest attempt moves the delivery
 * on). Returns the outcome of this very attempt.
 */
export async function sendDeliveryNow(
  database: Db,
  deliveryId: string,
  options: DeliveryOptions = {},
): Promise<SendOutcome> {
  const claim = await claimDeliveryNow(database, deliveryId, LEASE_SECONDS);
  return attemptDelivery(database, claim, options);
}

async function attemptDelivery(database: Db, claim: DeliveryClaim, options: DeliveryOptions): Promise<SendOutcome> {
  const delivery = await findDeliveryWithEndpoint(database, claim.id);
  // a test send is logged finished and is never claimed or resent (getDeliveryOrThrow leaves it out)
  if (delivery.eventId === null) throw new Error(`delivery ${delivery.id} is a test send, which is never sent again`);
  const event = await findEventById(database, delivery.eventId);
  const body = JSON.stringify(serializeEvent(event));
  const outcome = await signAndSend(delivery.endpoint, event.id, body, options);
  await recordAttempt(database, claim, outcome, options.retryScale ?? env().WEBHOOK_RETRY_SCALE);
  log.debug('webhook attempt', {
    delivery_id: claim.id,
    attempt: claim.attempt,
    status: outcome.status,
    error: outcome.error,
  });
  return outcome;
}

/**
 * Logs a test send as a finished delivery of its endpoint with its one attempt, so it shows among the
 * endpoint's deliveries beside real ones. It names no event: a test is not a stored event.
 */
export async function logTestDelivery(database: Db, endpointId: string, outcome: SendOutcome) {
  return inTransaction(database, async (tx) => {
    const delivery = await insertFinishedDelivery(tx, {
      id: newId('webhookDelivery'),
      eventType: TEST_EVENT_TYPE,
      endpointId,
      status: isDelivered(outcome) ? 'succeeded' : 'failed',
      lastAttemptAt: now(),
    });
    await insertAttempt(tx, { deliveryId: delivery.id, attempt: 1, ...attemptOutcome(outcome) });
    return delivery;
  });
}

/** Checks the URL again (DNS may have changed since creation), signs with every valid secret, sends. */
export async function signAndSend(
  endpoint: Pick<WebhookEndpoint, 'url' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  messageId: string,
  body: string,
  options: Pick<DeliveryOptions, 'allowPrivateUrls' | 'timeoutMs' | 'signal'> = {},
): Promise<SendOutcome> {
  const started = performance.now();
  const check = await checkWebhookUrl(endpoint.url, { allowPrivate: options.allowPrivateUrls });
  if (!check.ok) {
    return {
      status: null,
      error: `not sent: the URL ${check.reason}`,
      durationMs: Math.round(performance.now() - started),
      responseExcerpt: null,
    };
  }
  const headers = {
    ...signatureHeaders(signingSecrets(endpoint), messageId, Math.floor(Date.now() / 1000), body),
    'user-agent': USER_AGENT,
  };
  return sendWebhook({
    url: check.url,
    addresses: check.addresses,
    headers,
    body,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
}

/** The current secret, and the one it replaced while that is still within its 24 hours. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  at = now(),
): string[] {
  const previousValid =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at;
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/**
 * Logs the attempt and moves the delivery on: delivered, rescheduled, or failed after the last attempt.
 * An attempt the worker's shutdown interrupted releases the delivery at once, and never uses up the last
 * attempt. The update names the attempt it claimed, so a worker whose lease ran out cannot overwrite a
 * newer one.
 */
async function recordAttempt(
  database: Db,
  claim: DeliveryClaim,
  outcome: SendOutcome,
  retryScale: number,
): Promise<void> {
  const delivered = isDelivered(outcome);
  const delayMs = delivered ? null : outcome.interrupted ? 0 : retryDelayMs(claim.attempt, retryScale);
  const status = delivered ? 'succeeded' : delayMs === null ? 'failed' : 'pending';
  await inTransaction(database, async (tx) => {
    await insertAttempt(tx, { deliveryId: claim.id, attempt: claim.attempt, ...attemptOutcome(outcome) });
    await finishDeliveryAttempt(tx, claim, status, delayMs);
  });
}

/** What an attempt's log row keeps of a send's outcome. */
function attemptOutcome(outcome: SendOutcome) {
  return {
    responseStatus: outcome.status,
    error: outcome.error,
    durationMs: outcome.durationMs,
    responseExcerpt: outcome.responseExcerpt,
  };
}
