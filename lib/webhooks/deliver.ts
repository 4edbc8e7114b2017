import { connectionTime } from '@/lib/core/clock';
import { inTransaction, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { findEventById } from '@/lib/events/repository';
import { serializeEvent } from '@/lib/events/serialize';
import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { newId } from '@/lib/core/ids';
import { describeError, log } from '@/lib/log';
import { duplicateDelayMs, shuffled } from './faults';
import {
  claimDeliveryNow,
  claimDueDeliveries,
  claimDueDuplicates,
  claimEndpointDueDeliveries,
  finishDeliveryAttempt,
  findDeliveryWithEndpoint,
  insertAttempt,
  insertFinishedDelivery,
  renewClaimBeforeSend,
  type DeliveryClaim,
  type DueDeliveryClaim,
} from './repository';
import { retryDelayMs } from './retry-schedule';
import { DELIVERY_TIMEOUT_MS, isDelivered, sendWebhook, type SendOutcome } from './send';
import { SendPool } from './send-pool';
import { signatureHeaders } from './signature';
import { checkWebhookUrl } from './url-policy';

// The webhook delivery job. A claim is one statement: it picks due deliveries with FOR UPDATE SKIP LOCKED
// and, in the same statement, numbers the attempt and leases the row by moving next_attempt_at past the
// send's timeout. Sending happens outside any transaction; then the attempt is logged and the delivery
// finished or rescheduled. So any number of workers share the queue without sending one attempt twice,
// and a worker that dies mid-send leaves a lease that runs out and the delivery is tried again.
// The claimed sends go into the worker's SendPool (send-pool.ts): a few at a time per endpoint, so one
// merchant's slow endpoint never holds up another's deliveries, and the claim returns without waiting for
// them, so refunds and session expiry never wait either. An endpoint with sends held is left out of the next
// claims. Just before its send, each delivery is checked again (renewClaimBeforeSend): one whose endpoint was
// deleted or disabled while it waited is not sent.
// Fault injection (lib/webhooks/faults.ts): a shuffled endpoint's claimed deliveries are sent one after
// another in their shuffled order; an injected duplicate is claimed the same way (claimDueDuplicates) and
// sent at most once.

/** How long a claimed delivery is held (in its merchant's time) before another worker may claim it again. */
export const LEASE_SECONDS = 60;
const BATCH_SIZE = 20;
/** Sends in flight in one process at most, and to one endpoint (a shuffled one's go one at a time). */
export const MAX_SENDS = 32;
export const MAX_SENDS_PER_ENDPOINT = 2;
/** Claimed deliveries held in one process, sending or waiting their turn, at most. */
const MAX_HELD = 100;
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
  /**
   * the time whose secrets sign: a dashboard's send, its connection's time; else the wall clock, at which the
   * worker sends many merchants' deliveries (the signature's timestamp is always the wall clock, the receiver's)
   */
  at?: Date;
};

/** The pool a worker keeps for its sends (claimDueWebhooks fills it). */
export function newSendPool(): SendPool {
  return new SendPool(MAX_SENDS);
}

/** One pass: sends every due delivery and injected duplicate it can claim, up to a batch each, and waits for them. */
export async function deliverDueWebhooks(database: Db, options: DeliveryOptions = {}): Promise<number> {
  const pool = newSendPool();
  const claimed = await claimDueWebhooks(database, pool, options);
  await pool.idle();
  return claimed;
}

/**
 * Claims the due deliveries and injected duplicates the pool has room for (up to a batch each, none of an
 * endpoint the pool already holds sends for) and queues their sends; returns how many, without waiting for them.
 */
export async function claimDueWebhooks(database: Db, pool: SendPool, options: DeliveryOptions = {}): Promise<number> {
  const batchSize = Math.min(options.batchSize ?? BATCH_SIZE, MAX_HELD - pool.held);
  if (options.signal?.aborted || batchSize <= 0) return 0;
  const busy = pool.busyEndpoints();
  // a shuffled endpoint's batch is sent one after another, each send up to its timeout: the lease covers
  // the whole batch, so no delivery of it is claimed again while it waits its turn
  const sequentialLease = LEASE_SECONDS * BATCH_SIZE;
  const batches = byEndpoint(await claimDueDeliveries(database, batchSize, LEASE_SECONDS, sequentialLease, busy));
  // and the batch is whole: a claim shared with other endpoints, or cut by the pool's room, may have taken only
  // the oldest of its due deliveries, and the rest would go out as a second batch in an order of its own, not the
  // one the seed gives (lib/webhooks/faults.ts). It is completed up to a batch, which the pool holds beyond MAX_HELD.
  for (const [endpointId, batch] of batches) {
    if (!batch[0].shuffle || batch.length >= BATCH_SIZE) continue;
    const rest = BATCH_SIZE - batch.length;
    batch.push(...(await claimEndpointDueDeliveries(database, endpointId, rest, LEASE_SECONDS, sequentialLease)));
  }
  const duplicates = await claimDueDuplicates(database, batchSize, busy);
  const attempt = (claim: DeliveryClaim, send: () => Promise<unknown>) => async () => {
    await send().catch((error) =>
      // the lease runs out and another pass tries again (a duplicate is not sent again)
      log.error('webhook delivery attempt failed to run', {
        delivery_id: claim.id,
        attempt: claim.attempt,
        ...describeError(error),
      }),
    );
  };
  let claimed = 0;
  for (const [endpointId, batch] of batches) {
    // oldest first, except a shuffled endpoint's, sent one at a time in their shuffled order (lib/webhooks/faults.ts)
    const oneAtATime = batch[0].shuffle;
    const sequence = oneAtATime ? shuffled(batch, batch[0].seed) : batch;
    const sends = sequence.map((claim) => attempt(claim, () => sendClaimedDelivery(database, claim, options)));
    pool.add(endpointId, sends, oneAtATime ? 1 : MAX_SENDS_PER_ENDPOINT);
    claimed += batch.length;
  }
  for (const claim of duplicates) {
    pool.add(claim.endpointId, [attempt(claim, () => sendDuplicate(database, claim, options))], MAX_SENDS_PER_ENDPOINT);
  }
  return claimed + duplicates.length;
}

/** The claimed deliveries by endpoint, each endpoint's in the order claimed (oldest first). */
function byEndpoint(claims: DueDeliveryClaim[]): Map<string, DueDeliveryClaim[]> {
  const batches = new Map<string, DueDeliveryClaim[]>();
  for (const claim of claims) {
    const batch = batches.get(claim.endpointId);
    if (batch) batch.push(claim);
    else batches.set(claim.endpointId, [claim]);
  }
  return batches;
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

/**
 * A claimed delivery's turn in the worker's pool. One that is no longer the claim's to send, or whose endpoint
 * was deleted or disabled while it waited, is not sent (a shutdown sends nothing and releases it at once).
 */
async function sendClaimedDelivery(database: Db, claim: DeliveryClaim, options: DeliveryOptions): Promise<void> {
  if (!options.signal?.aborted) {
    const renewed = await renewClaimBeforeSend(database, claim, LEASE_SECONDS);
    if (renewed !== 'send') {
      log.debug('webhook delivery not sent', { delivery_id: claim.id, attempt: claim.attempt, renewed });
      return;
    }
  }
  await attemptDelivery(database, claim, { ...options, injectFaults: true });
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
export async function logTestDelivery(database: Db, endpointId: string, outcome: SendOutcome, at: Date) {
  return inTransaction(database, async (tx) => {
    const delivery = await insertFinishedDelivery(tx, {
      id: newId('webhookDelivery'),
      eventType: TEST_EVENT_TYPE,
      endpointId,
      status: isDelivered(outcome) ? 'succeeded' : 'failed',
      lastAttemptAt: at,
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
  options: Pick<DeliveryOptions, 'allowPrivateUrls' | 'timeoutMs' | 'signal' | 'at'> = {},
): Promise<SendOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // the name's lookup counts towards the send's time: a resolver that never answers cannot hold a send
  const check = await withinTimeout(
    checkWebhookUrl(endpoint.url, { allowPrivate: options.allowPrivateUrls }),
    timeoutMs,
  );
  if (check === 'timed out') {
    return {
      status: null,
      error: `timed out after ${timeoutMs} ms`,
      durationMs: Math.round(performance.now() - started),
      responseExcerpt: null,
    };
  }
  if (!check.ok) {
    return {
      status: null,
      error: `not sent: the URL ${check.reason}`,
      durationMs: Math.round(performance.now() - started),
      responseExcerpt: null,
    };
  }
  const headers = {
    ...signatureHeaders(
      signingSecrets(endpoint, options.at ?? connectionTime(0)),
      messageId,
      Math.floor(Date.now() / 1000),
      body,
    ),
    'user-agent': USER_AGENT,
  };
  return sendWebhook({
    url: check.url,
    addresses: check.addresses,
    headers,
    body,
    // what the lookup took is taken from the send's time, and counted in the attempt's duration
    timeoutMs,
    startedAt: started,
    signal: options.signal,
  });
}

function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)));
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}

/** The current secret, and the one it replaced while that is still within its 24 hours. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  at: Date,
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
