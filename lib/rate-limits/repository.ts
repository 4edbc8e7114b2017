import { z } from 'zod';
import { sql, type Db } from '@/lib/db';

// Every query on rate_limit_grants and rate_limit_processes. All run in the background, never on a
// request's path.

/** A claim of `want` tokens of one bucket's window. */
export type Claim = { bucket: string; windowStart: number; windowMs: number; points: number; want: number };

/** What each claim got, the window's tokens handed out in all, and how many other processes claimed lately. */
export type Granted = { grants: Map<string, { grant: number; granted: number }>; otherProcesses: number };

export const windowKey = (bucket: string, windowStart: number) => `${bucket}@${windowStart}`;

// One statement for every claim of a process, in one order (bucket, window) so that two processes never
// deadlock: each window's row gives what is left of its points, up to the claim, under the row's lock; and
// the process says it is present.
const CLAIM = `
  WITH claims AS (
    SELECT * FROM unnest($2::text[], $3::bigint[], $4::int[], $5::int[], $6::int[])
      AS t("bucket", "window_start", "window_ms", "points", "want")
    ORDER BY "bucket", "window_start"
  ), granted AS (
    INSERT INTO "rate_limit_grants" AS g ("bucket", "window_start", "points", "granted", "last_grant", "expires_at")
    SELECT "bucket", "window_start", "points", least("want", "points"), least("want", "points"),
           to_timestamp(("window_start" + "window_ms") / 1000.0)
    FROM claims
    ON CONFLICT ("bucket", "window_start") DO UPDATE
      SET "granted" = g."granted" + least(EXCLUDED."last_grant", g."points" - g."granted"),
          "last_grant" = least(EXCLUDED."last_grant", g."points" - g."granted")
    RETURNING g."bucket", g."window_start", g."granted", g."last_grant"
  ), present AS (
    INSERT INTO "rate_limit_processes" ("process", "seen_at") VALUES ($1, now())
    ON CONFLICT ("process") DO UPDATE SET "seen_at" = now()
  )
  SELECT r."bucket", r."window_start"::text AS "windowStart", r."granted", r."last_grant" AS "grant",
    (SELECT count(*)::int FROM "rate_limit_processes" AS p
      WHERE p."process" <> $1 AND p."seen_at" > now() - make_interval(secs => $7::int / 1000.0)) AS "otherProcesses"
  FROM (SELECT * FROM granted UNION ALL SELECT NULL, NULL, NULL, NULL) AS r`;

const grantedRow = z.object({
  bucket: z.string().nullable(),
  windowStart: z.string().nullable(),
  granted: z.number().int().nullable(),
  grant: z.number().int().nullable(),
  otherProcesses: z.number().int(),
});

/** One round trip for all of a process's claims (none: it only says it is present). */
export async function claimRateLimitTokens(
  database: Db,
  process: string,
  claims: Claim[],
  presentMs: number,
): Promise<Granted> {
  const rows = (
    await sql<object>(database, 'claim-rate-limit-tokens', CLAIM, [
      process,
      claims.map((claim) => claim.bucket),
      claims.map((claim) => claim.windowStart),
      claims.map((claim) => claim.windowMs),
      claims.map((claim) => claim.points),
      claims.map((claim) => claim.want),
      presentMs,
    ])
  ).map((row) => grantedRow.parse(row));
  const grants = new Map<string, { grant: number; granted: number }>();
  for (const row of rows) {
    if (row.bucket === null || row.windowStart === null) continue;
    grants.set(windowKey(row.bucket, Number(row.windowStart)), { grant: row.grant ?? 0, granted: row.granted ?? 0 });
  }
  return { grants, otherProcesses: rows[0]?.otherProcesses ?? 0 };
}

/** Windows that ended a minute ago or more, and processes gone as long. */
export async function deleteExpiredRateLimitGrants(database: Db): Promise<void> {
  await sql(
    database,
    'delete-expired-rate-limit-grants',
    `WITH grants AS (DELETE FROM "rate_limit_grants" WHERE "expires_at" < now() - interval '1 minute')
     DELETE FROM "rate_limit_processes" WHERE "seen_at" < now() - interval '1 minute'`,
    [],
  );
}

/** A process that stops claiming (shutting down), so that the others count it out at once. */
export async function deleteRateLimitProcess(database: Db, process: string): Promise<void> {
  await sql(database, 'delete-rate-limit-process', 'DELETE FROM "rate_limit_processes" WHERE "process" = $1', [
    process,
  ]);
}
