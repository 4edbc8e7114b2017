import { createHash } from 'node:crypto';
import type { Db } from '@/lib/db';

// Fixed-window counters in PostgreSQL, shared by every web process: sign-in guesses, sign-ups and
// payment-link checkouts per client address, failed API keys per address. A hit is counted *before* the
// work it guards, in one atomic statement, so a burst of parallel requests gets no more than the limit.
// Keys are hashes: the table holds no e-mail address or IP in clear.

export type ThrottleRule = { name: string; limit: number; windowSeconds: number };
export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type Hit = { rule: ThrottleRule; who: string };

export function throttleKey(rule: ThrottleRule, who: string): string {
  return `${rule.name}:${createHash('sha256').update(who).digest('hex')}`;
}

/** Counts one hit of each; refused when any of them is past its limit (the hits still count). */
export async function takeHits(database: Db, hits: Hit[]): Promise<ThrottleVerdict> {
  let retryAfterSeconds = 0;
  for (const hit of hits) {
    const counted = await countHit(database, hit);
    if (counted.hits > hit.rule.limit) retryAfterSeconds = Math.max(retryAfterSeconds, counted.retryAfterSeconds, 1);
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/** Counts one hit in the rule's current window (a new window when the last one has ended). */
export async function countHit(database: Db, { rule, who }: Hit): Promise<{ hits: number; retryAfterSeconds: number }> {
  const [row] = await database.$queryRaw<{ hits: number; retry_after: number }[]>`
    INSERT INTO "throttles" ("key", "hits", "window_started_at") VALUES (${throttleKey(rule, who)}, 1, now())
    ON CONFLICT ("key") DO UPDATE SET
      "hits" = CASE WHEN "throttles"."window_started_at" <= now() - make_interval(secs => ${rule.windowSeconds})
                    THEN 1 ELSE "throttles"."hits" + 1 END,
      "window_started_at" = CASE WHEN "throttles"."window_started_at" <= now() - make_interval(secs => ${rule.windowSeconds})
                                 THEN now() ELSE "throttles"."window_started_at" END
    RETURNING "hits",
      ceil(extract(epoch FROM "window_started_at" + make_interval(secs => ${rule.windowSeconds}) - now()))::int AS "retry_after"`;
  return { hits: row.hits, retryAfterSeconds: row.retry_after };
}

/** Takes back one hit: the guarded work turned out to be legitimate (a correct password). */
export async function giveBackHit(database: Db, { rule, who }: Hit): Promise<void> {
  await database.$executeRaw`UPDATE "throttles" SET "hits" = greatest("hits" - 1, 0) WHERE "key" = ${throttleKey(rule, who)}`;
}

/** Starts the window afresh: only the rightful owner can cause this (a sign-in with the password). */
export async function clearHits(database: Db, { rule, who }: Hit): Promise<void> {
  await database.$executeRaw`DELETE FROM "throttles" WHERE "key" = ${throttleKey(rule, who)}`;
}

/** Windows that ended long ago say nothing any more; the longest window is an hour. */
export async function purgeEndedThrottles(database: Db): Promise<number> {
  return database.$executeRaw`DELETE FROM "throttles" WHERE "window_started_at" < now() - interval '1 day'`;
}
