import { z } from 'zod';
import type { Db } from '@/lib/db';

// Every query on throttles. A hit is counted in one atomic statement (INSERT … ON CONFLICT), so parallel
// requests each see their own count.

const countedRow = z.object({ hits: z.number().int(), retry_after: z.number().int() });

/** Adds one hit to the window of `key`, starting a new window when the last one has ended. */
export async function incrementThrottleHits(
  database: Db,
  key: string,
  windowSeconds: number,
): Promise<{ hits: number; retryAfterSeconds: number }> {
  const [row] = await database.$queryRaw<unknown[]>`
    INSERT INTO "throttles" ("key", "hits", "window_started_at") VALUES (${key}, 1, now())
    ON CONFLICT ("key") DO UPDATE SET
      "hits" = CASE WHEN "throttles"."window_started_at" <= now() - make_interval(secs => ${windowSeconds})
                    THEN 1 ELSE "throttles"."hits" + 1 END,
      "window_started_at" = CASE WHEN "throttles"."window_started_at" <= now() - make_interval(secs => ${windowSeconds})
                                 THEN now() ELSE "throttles"."window_started_at" END
    RETURNING "hits",
      ceil(extract(epoch FROM "window_started_at" + make_interval(secs => ${windowSeconds}) - now()))::int AS "retry_after"`;
  const counted = countedRow.parse(row);
  return { hits: counted.hits, retryAfterSeconds: counted.retry_after };
}

/** One hit fewer, never below zero. */
export async function decrementThrottleHits(database: Db, key: string): Promise<void> {
  await database.$executeRaw`UPDATE "throttles" SET "hits" = greatest("hits" - 1, 0) WHERE "key" = ${key}`;
}

export async function deleteThrottle(database: Db, key: string): Promise<void> {
  await database.$executeRaw`DELETE FROM "throttles" WHERE "key" = ${key}`;
}

/** Windows that started over a day ago; the longest window is an hour. */
export async function deleteEndedThrottles(database: Db): Promise<number> {
  return database.$executeRaw`DELETE FROM "throttles" WHERE "window_started_at" < now() - interval '1 day'`;
}
