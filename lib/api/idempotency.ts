import { createHmac } from 'node:crypto';
import { db, type Db } from '@/lib/db';
import { secrets } from '@/lib/secrets';
import { errors } from './errors';

// api.md §4. The key row is inserted (and committed) before the handler runs, so a concurrent request
// with the same key sees it at once; the response is written onto it in the handler's own transaction,
// so a crash leaves both the resource and its record, or neither.

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export function readIdempotencyKey(request: Request, required: boolean): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) {
    if (required) throw errors.idempotencyKeyMissing('This request needs an Idempotency-Key header (1–255 printable ASCII characters)');
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) throw errors.idempotencyKeyInvalid('Idempotency-Key must be 1–255 printable ASCII characters');
  return key;
}

/**
 * HMAC-SHA-256 of the body as canonical JSON (keys sorted), so key order and spacing do not matter. Keyed
 * with the server-side pepper, not a plain SHA-256: a test-helper pay body carries a card number, and
 * with its BIN and last four known the other digits of a plain hash fall to a brute force in seconds.
 */
export function fingerprint(body: unknown): string {
  return createHmac('sha256', secrets().apiKeyPepper).update('idempotency-fingerprint:').update(canonicalJson(body)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type Claim = { kind: 'claimed'; id: bigint } | { kind: 'replay'; status: number; body: unknown };

/**
 * Claims the key for this request, or answers from the stored record. A record older than 24 hours is
 * forgotten; an unfinished one older than a minute belongs to a request that died and may be taken over.
 */
export async function claimIdempotencyKey(merchantId: string, endpoint: string, key: string, hash: string): Promise<Claim> {
  const client = await db();
  const claimed = await client.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint")
    VALUES (${merchantId}, ${endpoint}, ${key}, ${hash})
    ON CONFLICT ("merchant_id", "endpoint", "key") DO UPDATE
      SET "fingerprint" = EXCLUDED."fingerprint", "response_status" = NULL, "response_body" = NULL,
          "created_at" = now(), "locked_at" = now()
      WHERE "idempotency_keys"."created_at" < now() - interval '24 hours'
         OR ("idempotency_keys"."response_status" IS NULL
             AND "idempotency_keys"."locked_at" < now() - interval '1 minute'
             AND "idempotency_keys"."fingerprint" = EXCLUDED."fingerprint")
    RETURNING "id"`;
  if (claimed.length === 1) return { kind: 'claimed', id: claimed[0].id };

  const existing = await client.idempotencyKey.findUnique({
    where: { merchantId_endpoint_key: { merchantId, endpoint, key } },
    select: { fingerprint: true, responseStatus: true, responseBody: true },
  });
  // deleted between our insert and our read: the first request failed, so this one may try again
  if (!existing) return claimIdempotencyKey(merchantId, endpoint, key, hash);
  if (existing.fingerprint !== hash) {
    throw errors.idempotencyKeyReused(
      'This Idempotency-Key was already used with a different request body; use a new key for a new request',
    );
  }
  if (existing.responseStatus === null) {
    throw errors.idempotencyKeyInUse('A request with this Idempotency-Key is still being processed; retry shortly');
  }
  return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
}

/** Stores the response in the caller's transaction, beside the resource it describes. */
export async function completeIdempotencyKey(tx: Db, id: bigint, status: number, body: unknown): Promise<void> {
  await tx.idempotencyKey.update({ where: { id }, data: { responseStatus: status, responseBody: body as object } });
}

/** A request that did not succeed stores nothing: the key may be retried. */
export async function releaseIdempotencyKey(id: bigint): Promise<void> {
  const client = await db();
  await client.idempotencyKey.deleteMany({ where: { id, responseStatus: null } });
}

export async function purgeExpiredIdempotencyKeys(): Promise<number> {
  const client = await db();
  const { count } = await client.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 24 * 3600_000) } } });
  return count;
}
