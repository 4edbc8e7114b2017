import { z } from 'zod';
import { sql, type Db } from '@/lib/db';

// Every query on idempotency_keys (lib/api/idempotency.ts says what they are for). The claim and the
// completion are on the path of every create: one prepared statement each.

const claimRow = z.object({
  id: z.string(),
  claimed: z.boolean(),
  fingerprint: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.unknown(),
});

export type ClaimRow = z.infer<typeof claimRow>;

// The INSERT either claims the key (new, expired, or abandoned) or leaves the existing record alone; then
// the same statement reads that record. ON CONFLICT waits for a concurrent claim to commit, so two
// requests with one key never both claim it.
const CLAIM_OR_READ = `
  WITH claimed AS (
    INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint")
    VALUES ($1, $2, $3, $4)
    ON CONFLICT ("merchant_id", "endpoint", "key") DO UPDATE
      SET "fingerprint" = EXCLUDED."fingerprint", "response_status" = NULL, "response_body" = NULL,
          "created_at" = now(), "locked_at" = now()
      WHERE "idempotency_keys"."created_at" < now() - interval '24 hours'
         OR ("idempotency_keys"."response_status" IS NULL
             AND "idempotency_keys"."locked_at" < now() - interval '1 minute'
             AND "idempotency_keys"."fingerprint" = EXCLUDED."fingerprint")
    RETURNING "id")
  SELECT "id"::text AS "id", true AS "claimed", NULL AS "fingerprint", NULL::int AS "responseStatus", NULL::jsonb AS "responseBody"
  FROM claimed
  UNION ALL
  SELECT "id"::text, false, "fingerprint", "response_status", "response_body"
  FROM "idempotency_keys"
  WHERE "merchant_id" = $1 AND "endpoint" = $2 AND "key" = $3 AND NOT EXISTS (SELECT 1 FROM claimed)`;

/**
 * Claims the key (claimed: true) or reads the record that holds it. Undefined when the record was committed
 * after the statement's snapshot was taken, or deleted since: the caller looks again.
 */
export async function claimOrReadIdempotencyKey(
  database: Db,
  claim: { merchantId: string; endpoint: string; key: string; fingerprint: string },
): Promise<ClaimRow | undefined> {
  const [row] = await sql<object>(database, 'claim-idempotency-key', CLAIM_OR_READ, [
    claim.merchantId,
    claim.endpoint,
    claim.key,
    claim.fingerprint,
  ]);
  return row === undefined ? undefined : claimRow.parse(row);
}

export async function storeIdempotentResponse(tx: Db, id: bigint, status: number, body: unknown): Promise<void> {
  await sql(
    tx,
    'complete-idempotency-key',
    'UPDATE "idempotency_keys" SET "response_status" = $2::int, "response_body" = $3::jsonb WHERE "id" = $1::bigint',
    [id.toString(), status, JSON.stringify(body)],
  );
}

/** Deletes the record only while it holds no response. */
export async function deleteUnansweredIdempotencyKey(database: Db, id: bigint): Promise<void> {
  await database.idempotencyKey.deleteMany({ where: { id, responseStatus: null } });
}

export async function deleteIdempotencyKeysCreatedBefore(database: Db, cutoff: Date): Promise<number> {
  const { count } = await database.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff } } });
  return count;
}
