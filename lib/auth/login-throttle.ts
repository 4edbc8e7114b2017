import { createHash } from 'node:crypto';
import type { Db } from '@/lib/db';

// Sign-in throttling, shared by every web process through PostgreSQL. Each attempt takes a point from
// its e-mail's and its client address's window *before* the password is checked, in one atomic
// statement per key, so no burst of parallel guesses gets more checks than the limit. A successful
// sign-in clears its e-mail's count (only the owner can do that) and gives back its address's point,
// so an office behind one address is not locked out by colleagues who typed their password right.

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Guesses at one account per window. */
export const ATTEMPTS_PER_EMAIL = 5;
/** Failed attempts from one address per window, over all accounts. */
export const ATTEMPTS_PER_ADDRESS = 20;

export type ThrottleKeys = { email: string; address: string | null };
export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

function hashed(kind: 'email' | 'ip', value: string): string {
  return `${kind}:${createHash('sha256').update(value).digest('hex')}`;
}

function keysOf(keys: ThrottleKeys): { key: string; limit: number }[] {
  const out = [{ key: hashed('email', keys.email.trim().toLowerCase()), limit: ATTEMPTS_PER_EMAIL }];
  if (keys.address) out.push({ key: hashed('ip', keys.address), limit: ATTEMPTS_PER_ADDRESS });
  return out;
}

/** Counts an attempt against the e-mail and the address; refused when either is past its limit. */
export async function takeLoginAttempt(database: Db, keys: ThrottleKeys): Promise<ThrottleVerdict> {
  const windowSeconds = LOGIN_WINDOW_MS / 1000;
  let retryAfterSeconds = 0;
  for (const { key, limit } of keysOf(keys)) {
    const [row] = await database.$queryRaw<{ attempts: number; retry_after: number }[]>`
      INSERT INTO "login_throttles" ("key", "attempts", "window_started_at") VALUES (${key}, 1, now())
      ON CONFLICT ("key") DO UPDATE SET
        "attempts" = CASE WHEN "login_throttles"."window_started_at" <= now() - make_interval(secs => ${windowSeconds})
                          THEN 1 ELSE "login_throttles"."attempts" + 1 END,
        "window_started_at" = CASE WHEN "login_throttles"."window_started_at" <= now() - make_interval(secs => ${windowSeconds})
                                   THEN now() ELSE "login_throttles"."window_started_at" END
      RETURNING "attempts",
        ceil(extract(epoch FROM "window_started_at" + make_interval(secs => ${windowSeconds}) - now()))::int AS "retry_after"`;
    if (row.attempts > limit) retryAfterSeconds = Math.max(retryAfterSeconds, row.retry_after, 1);
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/** After a successful sign-in: the account starts afresh and the address gets its point back. */
export async function forgiveLoginAttempt(database: Db, keys: ThrottleKeys): Promise<void> {
  const [email, address] = keysOf(keys);
  await database.$executeRaw`DELETE FROM "login_throttles" WHERE "key" = ${email.key}`;
  if (address) {
    await database.$executeRaw`UPDATE "login_throttles" SET "attempts" = greatest("attempts" - 1, 0) WHERE "key" = ${address.key}`;
  }
}

/** Windows that ended long ago say nothing any more. */
export async function purgeOldLoginThrottles(database: Db): Promise<number> {
  return database.$executeRaw`DELETE FROM "login_throttles" WHERE "window_started_at" < now() - interval '1 day'`;
}
