import { errors } from '@/lib/core/errors';
import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import { paginate } from '@/lib/core/pagination';
import type { RequestContext } from '@/lib/core/context';
import type { Db } from '@/lib/db';
import { serializeEvent } from '@/lib/events/serialize';
import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/core/ids';
import { logTestDelivery, sendDeliveryNow, signAndSend, TEST_EVENT_TYPE, type DeliveryOptions } from './deliver';
import {
  findAttempts,
  findDeliveryById,
  findEndpoint,
  findEndpointCursor,
  findEndpointsPage,
  findEventDelivery,
  insertEndpoint,
  insertEndpointClaimingKey,
  deleteEndpointEndingDeliveries,
  rotateEndpointSecret,
  updateEndpoint,
  type NewWebhookEndpoint,
} from './repository';
import { mergeFaults } from './faults';
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from './schemas';
import type { SendOutcome } from './send';
import { serializeWebhookEndpoint } from './serialize';
import { generateWebhookSecret } from './signature';
import { checkWebhookUrl } from './url-policy';

// Webhook endpoints and their delivery log: the API's §13 and what the dashboard shows and does.

/** A rotated-out secret keeps signing beside the new one this long, so receivers can switch over. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 3600_000;

/** With `claimKey`, the request's Idempotency-Key is claimed by the write: a replay when another request holds it. */
type KeyOption = { claimKey?: ClaimKey<WebhookEndpoint> };
type UrlOption = { allowPrivateUrls?: boolean };

export function createWebhookEndpoint(
  context: RequestContext,
  input: CreateWebhookEndpointInput,
  options?: UrlOption,
): Promise<WebhookEndpoint>;
export function createWebhookEndpoint(
  context: RequestContext,
  input: CreateWebhookEndpointInput,
  options: UrlOption & KeyOption,
): Promise<Claimed<WebhookEndpoint>>;
export async function createWebhookEndpoint(
  context: RequestContext,
  input: CreateWebhookEndpointInput,
  options: UrlOption & KeyOption = {},
): Promise<Claimed<WebhookEndpoint>> {
  const { db: database, merchantId } = context;
  const endpoint: NewWebhookEndpoint = {
    id: newId('webhookEndpoint'),
    merchantId,
    url: await allowedUrl(input.url, options.allowPrivateUrls),
    description: input.description ?? null,
    events: input.events,
    secret: generateWebhookSecret(),
    createdAt: context.now,
    ...mergeFaults(NO_FAULTS, input.faults),
  };
  if (!options.claimKey) return insertEndpoint(database, endpoint);
  const made: WebhookEndpoint = {
    ...endpoint,
    status: 'enabled',
    previousSecret: null,
    previousSecretExpiresAt: null,
    deletedAt: null,
    faultSequence: 0n,
  };
  const claim = options.claimKey(made);
  return settleClaim(await insertEndpointClaimingKey(database, endpoint, claim), claim) ?? made;
}

/** The same URL policy for creation and update (lib/webhooks/url-policy.ts); the URL as it is stored. */
async function allowedUrl(url: string, allowPrivateUrls: boolean | undefined): Promise<string> {
  const check = await checkWebhookUrl(url, { allowPrivate: allowPrivateUrls });
  if (!check.ok) throw errors.parameterInvalid(`Invalid url: it ${check.reason}`, 'url', `This URL ${check.reason}`);
  return check.url.href;
}

const ENDPOINT_NOT_FOUND = 'This endpoint was not found.';

const NO_FAULTS = { faultDuplicateRate: 0, faultDelaySeconds: 0, faultShuffle: false, faultSeed: null };

/**
 * Changes what the request gives (url, events, description, status, faults); the rest, and the omitted
 * fields of `faults`, stay. A disabled endpoint gets no deliveries of events made while it is disabled
 * (eventsWrittenAfter); those already made go on. Returns the endpoint as it is afterwards.
 */
export function updateWebhookEndpoint(
  context: RequestContext,
  id: string,
  input: UpdateWebhookEndpointInput,
  options?: UrlOption,
): Promise<WebhookEndpoint>;
export function updateWebhookEndpoint(
  context: RequestContext,
  id: string,
  input: UpdateWebhookEndpointInput,
  options: UrlOption & KeyOption,
): Promise<Claimed<WebhookEndpoint>>;
export async function updateWebhookEndpoint(
  context: RequestContext,
  id: string,
  input: UpdateWebhookEndpointInput,
  options: UrlOption & KeyOption = {},
): Promise<Claimed<WebhookEndpoint>> {
  const { db: database, merchantId } = context;
  const endpoint = await getWebhookEndpointOrThrow(context, id);
  const url = input.url === undefined ? undefined : await allowedUrl(input.url, options.allowPrivateUrls);
  const faults = mergeFaults(endpoint, input.faults);
  const seedSet = input.faults?.seed !== undefined;
  const updated: WebhookEndpoint = {
    ...endpoint,
    url: url ?? endpoint.url,
    events: input.events ?? endpoint.events,
    description: input.description !== undefined ? input.description : endpoint.description,
    status: input.status ?? endpoint.status,
    ...faults,
    faultSequence: seedSet ? 0n : endpoint.faultSequence,
  };
  const claim = options.claimKey?.(updated);
  const outcome = await updateEndpoint(
    database,
    {
      id,
      merchantId,
      url,
      events: input.events,
      description: input.description,
      status: input.status,
      faultDuplicateRate: input.faults?.duplicate_rate,
      faultDelaySeconds: input.faults?.delay_seconds,
      faultShuffle: input.faults?.shuffle,
      faultSeed: input.faults?.seed,
    },
    claim,
  );
  if (outcome === false || outcome === 'resource_missing') {
    throw errors.resourceMissing(`No such webhook endpoint: '${id}'`, 'id', ENDPOINT_NOT_FOUND);
  }
  if (claim && outcome !== true) return settleClaim(outcome, claim) ?? updated;
  return updated;
}

export async function getWebhookEndpointOrThrow(context: RequestContext, id: string) {
  const { db: database, merchantId } = context;
  const endpoint = isId('webhookEndpoint', id) ? await findEndpoint(database, merchantId, id) : null;
  if (!endpoint) throw errors.resourceMissing(`No such webhook endpoint: '${id}'`, 'id', ENDPOINT_NOT_FOUND);
  return endpoint;
}

export async function listWebhookEndpoints(context: RequestContext, query: { limit: number; starting_after?: string }) {
  const { db: database, merchantId } = context;
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findEndpointCursor(database, merchantId, id),
    findPage: (page) => findEndpointsPage(database, merchantId, page),
  });
}

/**
 * Deleting stops deliveries at once: pending ones end as failed. The row stays (deleted_at) so the
 * delivery log of what was sent before remains readable.
 */
export async function deleteWebhookEndpoint(context: RequestContext, id: string): Promise<void> {
  const { db: database, merchantId, now } = context;
  const deleted = isId('webhookEndpoint', id) && (await deleteEndpointEndingDeliveries(database, merchantId, id, now));
  if (!deleted) throw errors.resourceMissing(`No such webhook endpoint: '${id}'`, 'id', ENDPOINT_NOT_FOUND);
}

/**
 * A new secret signs from now on; the old one keeps signing beside it for 24 hours (two signatures in
 * webhook-signature), so a receiver can switch without rejecting anything. Rotating again within those
 * hours retires the oldest at once. Returns the endpoint with the new secret, shown this once.
 */
export function rotateWebhookSecret(context: RequestContext, id: string): Promise<WebhookEndpoint>;
export function rotateWebhookSecret(
  context: RequestContext,
  id: string,
  options: KeyOption,
): Promise<Claimed<WebhookEndpoint>>;
export async function rotateWebhookSecret(
  context: RequestContext,
  id: string,
  options: KeyOption = {},
): Promise<Claimed<WebhookEndpoint>> {
  const { db: database, merchantId } = context;
  const endpoint = await getWebhookEndpointOrThrow(context, id);
  const previousExpiresAt = new Date(context.now.getTime() + PREVIOUS_SECRET_VALIDITY_MS);
  const newSecret = generateWebhookSecret();
  const rotated: WebhookEndpoint = {
    ...endpoint,
    secret: newSecret,
    previousSecret: endpoint.secret,
    previousSecretExpiresAt: previousExpiresAt,
  };
  const claim = options.claimKey?.(rotated);
  const outcome = await rotateEndpointSecret(database, { id, merchantId, newSecret, previousExpiresAt }, claim);
  if (outcome === false || outcome === 'resource_missing') {
    throw errors.resourceMissing(`No such webhook endpoint: '${id}'`, 'id', ENDPOINT_NOT_FOUND);
  }
  if (claim && outcome !== true) return settleClaim(outcome, claim) ?? rotated;
  return rotated;
}

/** A delivery of a stored event: a logged test send is not resent (a new test is one click away). */
async function getDeliveryOrThrow(database: Db, merchantId: string, id: string) {
  const delivery = await findEventDelivery(database, merchantId, id);
  if (!delivery)
    throw errors.resourceMissing(
      `No such webhook delivery: '${id}'`,
      'id',
      'This delivery was not found, or its endpoint was deleted.',
    );
  return delivery;
}

/** Every attempt of a delivery, first to last. */
export async function listAttempts(context: RequestContext, deliveryId: string) {
  const { db: database, merchantId } = context;
  const delivery = await getDeliveryOrThrow(database, merchantId, deliveryId);
  return findAttempts(database, delivery.id);
}

/**
 * Sends a delivery again now, as a new logged attempt with its own attempt number, whatever its status
 * (the dashboard's Resend). Returns the delivery as it is afterwards, and this attempt's outcome.
 */
export async function resendDelivery(context: RequestContext, deliveryId: string, options: DeliveryOptions = {}) {
  const { db: database, merchantId } = context;
  const delivery = await getDeliveryOrThrow(database, merchantId, deliveryId);
  await getWebhookEndpointOrThrow(context, delivery.endpointId);
  const outcome = await sendDeliveryNow(database, delivery.id, { ...options, at: context.now });
  return { delivery: await findDeliveryById(database, delivery.id), outcome };
}

/**
 * Sends a signed `webhook_endpoint.test` event describing the endpoint, so a merchant can check their
 * receiver. It is not a stored event (it would pollute /v1/events) and is not retried: the outcome
 * is returned for the dashboard to show at once, and logged as a delivery of the endpoint (with no
 * event) so it stays in the endpoint's deliveries.
 */
export async function sendTestEvent(
  context: RequestContext,
  endpointId: string,
  options: Pick<DeliveryOptions, 'allowPrivateUrls' | 'timeoutMs'> = {},
): Promise<SendOutcome & { eventId: string; deliveryId: string }> {
  const { db: database, now } = context;
  const endpoint = await getWebhookEndpointOrThrow(context, endpointId);
  const eventId = newId('event');
  const body = JSON.stringify(
    serializeEvent({
      id: eventId,
      type: TEST_EVENT_TYPE,
      createdAt: now,
      data: { object: serializeWebhookEndpoint(endpoint) },
    }),
  );
  const outcome = await signAndSend(endpoint, eventId, body, { ...options, at: now });
  const delivery = await logTestDelivery(database, endpoint.id, outcome, now);
  return { ...outcome, eventId, deliveryId: delivery.id };
}

/** What signs an endpoint's deliveries now: its secret, and a rotation's old one while it still signs too. */
export type WebhookSecrets = { secret: string; previous: { secret: string; expiresAt: Date } | null };

/**
 * The endpoint's signing secrets, which the server keeps readable to sign with: for the dashboard's Reveal,
 * once the signed-in user has re-entered the password. The old secret only while it still signs, on the
 * connection's clock (the time deliveries are signed at).
 */
export async function getWebhookSecrets(context: RequestContext, id: string): Promise<WebhookSecrets> {
  const endpoint = await getWebhookEndpointOrThrow(context, id);
  const previousSigns =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > context.now;
  return {
    secret: endpoint.secret,
    previous: previousSigns ? { secret: endpoint.previousSecret!, expiresAt: endpoint.previousSecretExpiresAt! } : null,
  };
}
