import { z } from 'zod';
import { sql, type Db } from '@/lib/db';
import { PROCESSES_SEEN_MS } from './shared-budgets';

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
  otherProcesses: z.number(),
});
export type SettledWindow = { bucket: string; windowStart: number; granted: number; taken: number; demand: number };
/** The windows settled, and how many other processes settled in the last PROCESSES_SEEN_MS. */
export type Settled = { rows: SettledWindow[]; otherProcesses: number };

// A process settles as a bucket of its own, 'process:<uuid>', one window a second: the others are the
// range of those buckets (an index range, not a LIKE) other than its own.
const SETTLE = `SELECT s."bucket", s."window_start"::text AS "windowStart", s."granted", s."taken", s."demand",
    o."processes" AS "otherProcesses"
  FROM settle_rate_limits($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[]) s
  CROSS JOIN (
    SELECT count(DISTINCT w."bucket")::int AS "processes"
    FROM "rate_limit_windows" w
    WHERE w."bucket" > 'process:' AND w."bucket" < 'process;' AND w."bucket" <> $8::text AND w."window_start" >= $9::bigint - $10::bigint
  ) o`;

/**
 * One round trip for every bucket of a process (self, settling for the second that starts at `second`);
 * sorted, so that two processes lock rows in the same order.
 */
export async function settleRateLimits(
  database: Db,
  settlements: Settlement[],
  self: string,
  second: number,
): Promise<Settled> {
  const sorted = [...settlements].sort(
    (a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0) || a.windowStart - b.windowStart,
  );
  const column = <K extends keyof Settlement>(name: K) => sorted.map((settlement) => settlement[name]);
  const rows = (
    await sql<object>(database, 'settle-rate-limits', SETTLE, [
      column('bucket'),
      column('windowStart'),
      column('windowMs'),
      column('points'),
      column('credit'),
      column('want'),
      column('demand'),
      self,
      second,
      PROCESSES_SEEN_MS,
    ])
  ).map((row) => settledRow.parse(row));
  return { rows, otherProcesses: rows[0]?.otherProcesses ?? 0 };
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
