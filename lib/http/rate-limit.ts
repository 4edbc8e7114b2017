import { db } from '@/lib/db';
import { env } from '@/lib/env';
import {
  claimRateLimitTokens,
  deleteExpiredRateLimitGrants,
  deleteRateLimitProcess,
} from '@/lib/rate-limits/repository';
import { MAX_WAIT_MS, PRESENT_MS, SharedBudgets, type Outcome } from '@/lib/rate-limits/shared-budgets';
import { errors } from '@/lib/core/errors';

// Rate limits of the API (README, Configuration), shared by every web process through PostgreSQL but
// counted in memory: lib/rate-limits/shared-budgets.ts settles with the database in the background, so no
// request waits for it. Each key gets RATE_LIMIT_PER_SECOND requests a second, and up to RATE_LIMIT_BURST in
// a second now and then: the extra (BURST − PER_SECOND) requests come from a second bucket that refills
// every 10 seconds. A merchant's keys together get RATE_LIMIT_MERCHANT_* (twice a key's, unset), so making
// more keys does not multiply a merchant's rate.

const BURST_WINDOW_MS = 10_000;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

const globalForLimiter = globalThis as unknown as { sandboxRateLimits?: SharedBudgets };

function budgets(): SharedBudgets {
  if (!globalForLimiter.sandboxRateLimits) {
    globalForLimiter.sandboxRateLimits = new SharedBudgets(
      async (self, claims) => claimRateLimitTokens(await db(), self, claims, PRESENT_MS),
      async () => deleteExpiredRateLimitGrants(await db()),
      Date.now,
      async (self) => deleteRateLimitProcess(await db(), self),
    );
    globalForLimiter.sandboxRateLimits.start();
  }
  return globalForLimiter.sandboxRateLimits;
}

/** From start-up, so that a process knows how many others share the limits before its first request. */
export function startRateLimits(): void {
  budgets();
}

export function merchantLimits(): { perSecond: number; burst: number } {
  const { RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST, RATE_LIMIT_MERCHANT_PER_SECOND, RATE_LIMIT_MERCHANT_BURST } = env();
  return {
    perSecond: RATE_LIMIT_MERCHANT_PER_SECOND ?? 2 * RATE_LIMIT_PER_SECOND,
    burst: RATE_LIMIT_MERCHANT_BURST ?? 2 * RATE_LIMIT_BURST,
  };
}

/** One request of the bucket; past this process's tokens while the window has room, after the settlements. */
async function take(name: string, points: number, windowMs: number): Promise<Outcome> {
  let outcome = budgets().consume(name, points, windowMs);
  const waitUntil = performance.now() + MAX_WAIT_MS;
  while (!outcome.allowed && outcome.worthWaiting && performance.now() < waitUntil) {
    await budgets().nextSettlement();
    outcome = budgets().consume(name, points, windowMs);
  }
  return outcome;
}

/** The steady bucket first; when it is spent, the burst bucket (what rate-limiter-flexible's BurstyRateLimiter did). */
async function consumeBursty(name: string, perSecond: number, burst: number): Promise<Outcome> {
  const steady = await take(`${name}:s`, perSecond, 1000);
  if (steady.allowed || burst <= perSecond) return steady;
  const extra = await take(`${name}:b`, burst - perSecond, BURST_WINDOW_MS);
  return {
    ...extra,
    remaining: steady.remaining,
    msBeforeReset: Math.min(steady.msBeforeReset, extra.msBeforeReset),
  };
}

/** Counts one request of this key and its merchant; over either limit it is a 429 with Retry-After. */
export async function checkRateLimit(keyId: string, merchantId: string): Promise<RateLimitState> {
  const limit = env().RATE_LIMIT_PER_SECOND;
  const merchant = merchantLimits();
  const [byKey, byMerchant] = await Promise.all([
    consumeBursty(`k:${keyId}`, limit, env().RATE_LIMIT_BURST),
    consumeBursty(`m:${merchantId}`, merchant.perSecond, merchant.burst),
  ]);
  for (const outcome of [byKey, byMerchant]) {
    if (!outcome.allowed) {
      const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeReset / 1000));
      const error = errors.rateLimited(retryAfter);
      Object.assign(error.headers, rateLimitHeaders({ limit, remaining: 0, resetSeconds: retryAfter }));
      throw error;
    }
  }
  return { limit, remaining: byKey.remaining, resetSeconds: Math.ceil(byKey.msBeforeReset / 1000) };
}

/** IETF RateLimit header fields. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
