import pg from 'pg';
import { BurstyRateLimiter, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { databaseUrl } from '@/lib/db';
import { env } from '@/lib/env';
import { errors } from './errors';

// Per-API-key rate limit (api.md §11), kept in PostgreSQL so it holds across every web process.
// RATE_LIMIT_PER_SECOND requests a second, and up to RATE_LIMIT_BURST in a second now and then: the
// extra (BURST − PER_SECOND) requests come from a second bucket that refills every 10 seconds.

const BURST_WINDOW_SECONDS = 10;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

type Limiter = { consume: (key: string) => Promise<RateLimiterRes> };

const globalForLimiter = globalThis as unknown as { sandboxRateLimiter?: Promise<Limiter> };

function limiter(): Promise<Limiter> {
  globalForLimiter.sandboxRateLimiter ??= createLimiter(env().RATE_LIMIT_PER_SECOND, env().RATE_LIMIT_BURST);
  return globalForLimiter.sandboxRateLimiter;
}

export async function createLimiter(perSecond: number, burst: number, tableName = 'rate_limits'): Promise<Limiter> {
  const pool = new pg.Pool({ connectionString: await databaseUrl(), max: 10 });
  // the table is made by a migration; keyPrefix keeps the two buckets' rows apart
  const base = { storeClient: pool, storeType: 'pool', tableName, tableCreated: true, clearExpiredByTimeout: true };
  const steady = new RateLimiterPostgres({ ...base, keyPrefix: 's', points: perSecond, duration: 1 });
  if (burst <= perSecond) return steady;
  const extra = new RateLimiterPostgres({ ...base, keyPrefix: 'b', points: burst - perSecond, duration: BURST_WINDOW_SECONDS });
  return new BurstyRateLimiter(steady, extra);
}

/** Counts one request of this key; over the limit it is a 429 with Retry-After. */
export async function checkRateLimit(keyId: string, override?: Limiter): Promise<RateLimitState> {
  const active = override ?? (await limiter());
  const limit = env().RATE_LIMIT_PER_SECOND;
  try {
    const res = await active.consume(keyId);
    return { limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      const error = errors.rateLimited(retryAfter);
      Object.assign(error.headers, rateLimitHeaders({ limit, remaining: 0, resetSeconds: retryAfter }));
      throw error;
    }
    throw rejection;
  }
}

/** IETF RateLimit header fields. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
