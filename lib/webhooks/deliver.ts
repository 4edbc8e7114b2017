import { now } from '@/lib/clock';
import { inTransaction, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { findEventById } from '@/lib/events/repository';
import { serializeEvent } from '@/lib/events/serialize';
import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { newId } from '@/lib/ids';
import { describeError, log } from '@/lib/log';
import { duplicateDelayMs, shuffled } from './faults';
import {
  claimDeliveryNow,
  claimDueDeliveries,
  claimDueDuplicates,
  finishDeliveryAttempt,
  findDeliveryWithEndpoint,
  insertAttempt,
  insertFinishedDelivery,
  type DeliveryClaim,
  type DueDeliveryClaim,
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
// Fault injection (lib/webhooks/faults.ts): a shuffled endpoint's claimed deliveries are sent one after
// another in their shuffled order; an injected duplicate is claimed the same way (claimDueDuplicates) and
// sent at most once.

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

/** Sends every due delivery and injected duplicate it can claim, up to a batch each; returns how many. */
export async function deliverDueWebhooks(database: Db, options: DeliveryOptions = {}): Promise<number> {
  if (options.signal?.aborted) return 0;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  // a shuffled endpoint's batch is sent one after another, each send up to its timeout: the lease covers
  // the whole batch, so no delivery of it is claimed again while it waits its turn
  const claims = await claimDueDeliveries(database, batchSize, LEASE_SECONDS, LEASE_SECONDS * batchSize);
  const duplicates = await claimDueDuplicates(database, batchSize);
  const attempt = (claim: DeliveryClaim, send: () => Promise<unknown>) =>
    send().catch((error) =>
      // the lease runs out and another pass tries again (a duplicate is not sent again)
      log.error('webhook delivery attempt failed to run', {
        delivery_id: claim.id,
        attempt: claim.attempt,
        ...describeError(error),
      }),
    );
  await Promise.all([
    ...sendingOrder(claims).map(async (sequence) => {
      for (const claim of sequence) {
        await attempt(claim, () => attemptDelivery(database, claim, { ...options, injectFaults: true }));
      }
    }),
    ...duplicates.map((claim) => attempt(claim, () => sendDuplicate(database, claim, options))),
  ]);
  return claims.length + duplicates.length;
}

/**
 * The claimed deliveries as sequences sent side by side: each delivery alone, except a shuffled
 * endpoint's, which form one sequence in their shuffled order (lib/webhooks/faults.ts).
 */
function sendingOrder(claims: DueDeliveryClaim[]): DueDeliveryClaim[][] {
  const sequences: DueDeliveryClaim[][] = [];
  const shuffledByEndpoint = new Map<string, DueDeliveryClaim[]>();
  for (const claim of claims) {
    if (!claim.shuffle) sequences.push([claim]);
    else shuffledByEndpoint.set(claim.endpointId, [...(shuffledByEndpoint.get(claim.endpointId) ?? []), claim]);
  }
  for (const batch of shuffledByEndpoint.values()) sequences.push(shuffled(batch, batch[0].seed));
  return sequences;
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

async function attemptDelivery(
  database: Db,
  claim: DeliveryClaim,
  options: DeliveryOptions & { injectFaults?: boolean },
): Promise<SendOutcome> {
  const { delivery, body } = await deliveryAndBody(database, claim.id);
  const outcome = await signAndSend(delivery.endpoint, delivery.eventId, body, options);
  // a resend from the dashboard is never duplicated: only the worker's sends inject faults
  const duplicateAfterMs =
    options.injectFaults && isDelivered(outcome) ? duplicateDelayMs(delivery.endpoint, delivery.faultNumber) : null;
  await recordAttempt(database, claim, outcome, options.retryScale ?? env().WEBHOOK_RETRY_SCALE, duplicateAfterMs);
  log.debug('webhook attempt', {
    delivery_id: claim.id,
    attempt: claim.attempt,
    status: outcome.status,
    error: outcome.error,
  });
  return outcome;
}

/** The delivery with its endpoint, and the body it sends: its event as the API shows it. */
async function deliveryAndBody(database: Db, deliveryId: string) {
  const delivery = await findDeliveryWithEndpoint(database, deliveryId);
  // a test send is logged finished and is never claimed or resent (getDeliveryOrThrow leaves it out)
  if (delivery.eventId === null) throw new Error(`delivery ${delivery.id} is a test send, which is never sent again`);
  const event = await findEventById(database, delivery.eventId);
  return { delivery: { ...delivery, eventId: event.id }, body: JSON.stringify(serializeEvent(event)) };
}

/**
 * An injected duplicate (lib/webhooks/faults.ts): the same event sent once more with the same webhook-id and body, a
 * fresh timestamp and signature, logged as an attempt with `injected: "duplicate"`. It moves the delivery
 * nowhere (it stays succeeded) and is not retried.
 */
async function sendDuplicate(database: Db, claim: DeliveryClaim, options: DeliveryOptions): Promise<SendOutcome> {
  const { delivery, body } = await deliveryAndBody(database, claim.id);
  const outcome = await signAndSend(delivery.endpoint, delivery.eventId, body, options);
  await insertAttempt(database, {
    deliveryId: claim.id,
    attempt: claim.attempt,
    ...attemptOutcome(outcome),
    injected: 'duplicate',
  });
  log.debug('webhook injected duplicate', { delivery_id: claim.id, attempt: claim.attempt, status: outcome.status });
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
  duplicateAfterMs: number | null,
): Promise<void> {
  const delivered = isDelivered(outcome);
  const delayMs = delivered ? null : outcome.interrupted ? 0 : retryDelayMs(claim.attempt, retryScale);
  const status = delivered ? 'succeeded' : delayMs === null ? 'failed' : 'pending';
  await inTransaction(database, async (tx) => {
    await insertAttempt(tx, { deliveryId: claim.id, attempt: claim.attempt, ...attemptOutcome(outcome) });
    await finishDeliveryAttempt(tx, claim, status, delayMs, duplicateAfterMs);
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
