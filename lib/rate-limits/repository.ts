import { z } from 'zod';
import { sql, type Db } from '@/lib/db';

// Every query on rate_limit_windows. Both run in the background, never on a request's path.

export type Settlement = {
  bucket: string;
  windowStart: number;
  windowMs: number;
  points: number;
  /** tokens spent before any were claimed: recorded as taken whatever is left */
  credit: number;
  /** tokens asked for: granted as far as the window has them */
  want: number;
  /** requests seen since the last settlement */
  demand: number;
};

const settledRow = z.object({
  bucket: z.string(),
  windowStart: z.coerce.number(),
  granted: z.number(),
  taken: z.number(),
  demand: z.number(),
});
export type SettledWindow = z.infer<typeof settledRow>;

const SETTLE =
  'SELECT "bucket", "window_start"::text AS "windowStart", "granted", "taken", "demand" FROM settle_rate_limits($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[])';

/** One round trip for every bucket of a process; sorted, so two processes lock rows in the same order. */
export async function settleRateLimits(database: Db, settlements: Settlement[]): Promise<SettledWindow[]> {
  const sorted = [...settlements].sort(
    (a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0) || a.windowStart - b.windowStart,
  );
  const column = <K extends keyof Settlement>(name: K) => sorted.map((settlement) => settlement[name]);
  const rows = await sql<object>(database, 'settle-rate-limits', SETTLE, [
    column('bucket'),
    column('windowStart'),
    column('windowMs'),
    column('points'),
    column('credit'),
    column('want'),
    column('demand'),
  ]);
  return rows.map((row) => settledRow.parse(row));
}

/** Windows that ended a minute ago or more. */
export async function deleteExpiredRateLimitWindows(database: Db): Promise<void> {
  await sql(
    database,
    'delete-expired-rate-limit-windows',
    `DELETE FROM "rate_limit_windows" WHERE "expires_at" < now() - interval '1 minute'`,
    [],
  );
}
