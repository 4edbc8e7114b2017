import pg from 'pg';
import { BurstyRateLimiter, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { databaseUrl } from '@/lib/db';
import { env } from '@/lib/env';
import { errors } from './errors';

// Rate limits of the API (README, Configuration), kept in PostgreSQL so they hold across every web process. Each
// key gets RATE_LIMIT_PER_SECOND requests a second, and up to RATE_LIMIT_BURST in a second now and then:
// the extra (BURST − PER_SECOND) requests come from a second bucket that refills every 10 seconds. A
// merchant's keys together get RATE_LIMIT_MERCHANT_* (twice a key's, unset), so making more keys does
// not multiply a merchant's rate.
// rate_limits is read and written only by rate-limiter-flexible, through the pool below: no query of ours.

const BURST_WINDOW_SECONDS = 10;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

type Limiter = { consume: (key: string) => Promise<RateLimiterRes> };
type Limiters = { key: Limiter; merchant: Limiter };

const globalForLimiter = globalThis as unknown as { sandboxRateLimiters?: Promise<Limiters> };

export function merchantLimits(): { perSecond: number; burst: number } {
  const { RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST, RATE_LIMIT_MERCHANT_PER_SECOND, RATE_LIMIT_MERCHANT_BURST } = env();
  return {
    perSecond: RATE_LIMIT_MERCHANT_PER_SECOND ?? 2 * RATE_LIMIT_PER_SECOND,
    burst: RATE_LIMIT_MERCHANT_BURST ?? 2 * RATE_LIMIT_BURST,
  };
}

function limiters(): Promise<Limiters> {
  globalForLimiter.sandboxRateLimiters ??= (async () => {
    const pool = new pg.Pool({ connectionString: await databaseUrl(), max: 10 });
    const merchant = merchantLimits();
    return {
      key: createLimiter(pool, env().RATE_LIMIT_PER_SECOND, env().RATE_LIMIT_BURST, 'k'),
      merchant: createLimiter(pool, merchant.perSecond, merchant.burst, 'm'),
    };
  })();
  return globalForLimiter.sandboxRateLimiters;
}

function createLimiter(pool: pg.Pool, perSecond: number, burst: number, prefix: string): Limiter {
  // the table is made by a migration; keyPrefix keeps the buckets' rows apart
  const base = {
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: true,
  };
  const steady = new RateLimiterPostgres({ ...base, keyPrefix: `${prefix}s`, points: perSecond, duration: 1 });
  if (burst <= perSecond) return steady;
  const extra = new RateLimiterPostgres({
    ...base,
    keyPrefix: `${prefix}b`,
    points: burst - perSecond,
    duration: BURST_WINDOW_SECONDS,
  });
  return new BurstyRateLimiter(steady, extra);
}

/** Counts one request of this key and its merchant; over either limit it is a 429 with Retry-After. */
export async function checkRateLimit(keyId: string, merchantId: string): Promise<RateLimitState> {
  const active = await limiters();
  const limit = env().RATE_LIMIT_PER_SECOND;
  const [byKey, byMerchant] = await Promise.allSettled([
    active.key.consume(keyId),
    active.merchant.consume(merchantId),
  ]);
  for (const outcome of [byKey, byMerchant]) {
    if (outcome.status === 'rejected') {
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
      const retryAfter = Math.max(1, Math.ceil(outcome.reason.msBeforeNext / 1000));
      const error = errors.rateLimited(retryAfter);
      Object.assign(error.headers, rateLimitHeaders({ limit, remaining: 0, resetSeconds: retryAfter }));
      throw error;
    }
  }
  const res = (byKey as PromiseFulfilledResult<RateLimiterRes>).value;
  return { limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
}

/** IETF RateLimit header fields. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
