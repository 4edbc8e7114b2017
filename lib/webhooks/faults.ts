import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { WebhookEndpoint } from '@/lib/generated/prisma/client';

// Webhook fault injection: an endpoint can be sent duplicates, delayed first attempts and
// its due deliveries in random order. With a seed every random choice is a hash of (seed, n), where n
// numbers the endpoint's deliveries in the order their events were made, starting at 1 each time the seed
// is set (eventsWrittenAfter in lib/events/repository.ts numbers them). FAULTS_RULES says it for /docs.

export const MAX_DELAY_SECONDS = 3600;
/** An injected duplicate is sent this many seconds after the delivery was answered 2xx, 1 to 10. */
const DUPLICATE_DELAY_SECONDS = { min: 1, max: 10 } as const;

/** The documented rule, for the operations' descriptions. */
export const FAULTS_RULES =
  '`faults` injects what real webhooks do (all off by default). `duplicate_rate` (0–1): after a delivery is answered 2xx, with this probability the same event is sent once more 1–10 s later, with the same `webhook-id` and body and a fresh `webhook-timestamp` and signature; that attempt is logged with `injected: "duplicate"` (a dashboard resend is never duplicated). `delay_seconds` (0–3600): a delivery\'s first attempt is due that long after its event was created; changing it moves the first attempts not yet made. `shuffle`: the endpoint\'s deliveries that are due together are sent one after another in random order instead of event order. `seed` (an integer, or null for fresh randomness): setting it (even to the same value) numbers the endpoint\'s deliveries from 1 again, n = 1, 2, … in the order their events are created; then u(purpose) = the first 6 bytes of SHA-256 of the UTF-8 text `{seed}:{n}:{purpose}` read as a big-endian integer and divided by 2^48. Delivery n is duplicated exactly when u("duplicate") < duplicate_rate, 1 + floor(10 × u("duplicate-delay")) seconds after its 2xx; a shuffled batch is sent in increasing u("shuffle") (ties by n). So the same seed and the same sequence of events give the same duplicates and the same order on every run.';

const rate = z.number().min(0).max(1).describe('The chance, 0 to 1, that a delivered event is sent once more');
const delay = z
  .number()
  .int()
  .min(0)
  .max(MAX_DELAY_SECONDS)
  .describe("Seconds a delivery's first attempt waits after its event, 0 to 3600");
const shuffle = z.boolean().describe('Due deliveries go out in random order instead of event order');
const seed = z
  .number()
  .int()
  .min(Number.MIN_SAFE_INTEGER)
  .max(Number.MAX_SAFE_INTEGER)
  .nullable()
  .describe('Makes the duplicates and the order reproducible; null for fresh randomness');

/** The faults a request may send: every field optional, the omitted ones stay as they are. */
export const faultsInput = z
  .strictObject({
    duplicate_rate: rate.optional(),
    delay_seconds: delay.optional(),
    shuffle: shuffle.optional(),
    seed: seed.optional(),
  })
  .describe(FAULTS_RULES);

export type FaultsInput = z.output<typeof faultsInput>;

/** The faults as the API shows them (webhook_endpoint.faults). */
export const faultsObject = z
  .strictObject({ duplicate_rate: rate, delay_seconds: delay, shuffle, seed })
  .describe('Fault injection on this endpoint (/docs: Update a webhook endpoint says how it works)');

type EndpointFaults = Pick<WebhookEndpoint, 'faultDuplicateRate' | 'faultDelaySeconds' | 'faultShuffle' | 'faultSeed'>;

export function serializeFaults(endpoint: EndpointFaults): z.output<typeof faultsObject> {
  return {
    duplicate_rate: endpoint.faultDuplicateRate,
    delay_seconds: endpoint.faultDelaySeconds,
    shuffle: endpoint.faultShuffle,
    seed: endpoint.faultSeed === null ? null : Number(endpoint.faultSeed),
  };
}

/** The endpoint's fault columns after applying `input` (omitted fields stay). */
export function mergeFaults(endpoint: EndpointFaults, input: FaultsInput | undefined): EndpointFaults {
  return {
    faultDuplicateRate: input?.duplicate_rate ?? endpoint.faultDuplicateRate,
    faultDelaySeconds: input?.delay_seconds ?? endpoint.faultDelaySeconds,
    faultShuffle: input?.shuffle ?? endpoint.faultShuffle,
    faultSeed:
      input && input.seed !== undefined ? (input.seed === null ? null : BigInt(input.seed)) : endpoint.faultSeed,
  };
}

/** u(purpose) of FAULTS_RULES: a number in [0, 1) fixed by (seed, n, purpose). */
export function seededUnit(seed: bigint | number, n: bigint | number, purpose: string): number {
  const digest = createHash('sha256').update(`${seed}:${n}:${purpose}`, 'utf8').digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** u(purpose) for delivery number n of a seeded endpoint, or a fresh random one without a seed. */
function unit(seedValue: bigint | null, n: bigint | null, purpose: string): number {
  if (seedValue === null || n === null) return randomBytes(6).readUIntBE(0, 6) / 2 ** 48;
  return seededUnit(seedValue, n, purpose);
}

/**
 * Whether a delivery just answered 2xx gets an injected duplicate, and after how many milliseconds:
 * null when not.
 */
export function duplicateDelayMs(
  endpoint: Pick<WebhookEndpoint, 'faultDuplicateRate' | 'faultSeed'>,
  faultNumber: bigint | null,
): number | null {
  if (endpoint.faultDuplicateRate <= 0) return null;
  if (unit(endpoint.faultSeed, faultNumber, 'duplicate') >= endpoint.faultDuplicateRate) return null;
  const span = DUPLICATE_DELAY_SECONDS.max - DUPLICATE_DELAY_SECONDS.min + 1;
  const seconds =
    DUPLICATE_DELAY_SECONDS.min + Math.floor(span * unit(endpoint.faultSeed, faultNumber, 'duplicate-delay'));
  return Math.min(seconds, DUPLICATE_DELAY_SECONDS.max) * 1000;
}

/** A shuffled batch's sending order: increasing u("shuffle"), ties (and unnumbered ones) by n. */
export function shuffled<T extends { faultNumber: bigint | null }>(deliveries: T[], seedValue: bigint | null): T[] {
  const keyed = deliveries.map((delivery) => ({
    delivery,
    key: unit(seedValue, delivery.faultNumber, 'shuffle'),
    n: delivery.faultNumber ?? 0n,
  }));
  keyed.sort((a, b) => a.key - b.key || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  return keyed.map(({ delivery }) => delivery);
}
