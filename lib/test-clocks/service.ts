import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import type { RequestContext } from '@/lib/core/context';
import { forgetKeysOfMerchant } from '@/lib/api-keys/service';
import type { Db } from '@/lib/db';
import { everyProcessHasHeard } from '@/lib/db/change-notices';
import { errors } from '@/lib/core/errors';
import { env } from '@/lib/env';
import {
  advanceClockClaimingKey,
  advanceClockOf,
  CLOCK_LIMIT,
  countDueAfterAdvance,
  findClock,
  type AdvancePreviewRow,
  type ClockRow,
} from './repository';
import { MAX_CLOCK_OFFSET_SECONDS } from './schemas';

// A connection's test clock: its "now" is the wall clock plus an offset that only grows. Requests read the
// offset with their API key, the dashboard with its session, the hosted pages and the worker with the rows they
// act on; each builds its RequestContext at that time (lib/core/context.ts), which services take as `now`.

export type TestClock = ClockRow;

export async function getTestClock(context: RequestContext): Promise<TestClock> {
  return findClock(context.db, context.merchantId);
}

/**
 * Moves the clock forward by `seconds` (1…MAX_ADVANCE_SECONDS, checked by advanceTestClockInput). With `claimKey`,
 * claims the request's Idempotency-Key in the same statement. Returns once every process reads the new offset
 * with its keys (their cache forgets a changed merchant within that bound), so the next request sees it.
 */
export function advanceTestClock(context: RequestContext, seconds: number): Promise<TestClock>;
export function advanceTestClock(
  context: RequestContext,
  seconds: number,
  options: { claimKey?: ClaimKey<TestClock> },
): Promise<Claimed<TestClock>>;
export async function advanceTestClock(
  context: RequestContext,
  seconds: number,
  options: { claimKey?: ClaimKey<TestClock> } = {},
): Promise<Claimed<TestClock>> {
  const { db: database, merchantId } = context;
  let clock: TestClock;
  if (options.claimKey) {
    // the answer is the statement's to write: only it knows the offset after a concurrent advance
    const claim = options.claimKey({ offsetSeconds: 0, now: new Date(0) });
    const advanced = await advanceClockClaimingKey(database, merchantId, seconds, claim);
    if (advanced === CLOCK_LIMIT) throw await pastTheLimit(database, merchantId, seconds);
    const replay = settleClaim(advanced.outcome, claim);
    if (replay) return replay;
    clock = advanced.clock!;
  } else {
    const advanced = await advanceClockOf(database, merchantId, seconds);
    if (advanced === CLOCK_LIMIT) throw await pastTheLimit(database, merchantId, seconds);
    clock = advanced;
  }
  forgetKeysOfMerchant(merchantId);
  await everyProcessHasHeard();
  return clock;
}

/** What an advance would do: how many open sessions expire, refunds finish and webhook retries come due. */
export type AdvancePreview = AdvancePreviewRow;

/**
 * Counts what advancing by `seconds` brings due, without moving the clock: for the dashboard to say before it
 * advances ("3 open sessions will expire"). The worker does it within its next tick after the advance.
 */
export async function previewTestClockAdvance(context: RequestContext, seconds: number): Promise<AdvancePreview> {
  return countDueAfterAdvance(context.db, context.merchantId, seconds, env().REFUND_PROCESSING_DELAY_MS / 1000);
}

const YEAR_SECONDS = 31_536_000;

async function pastTheLimit(database: Db, merchantId: string, seconds: number) {
  const { offsetSeconds } = await findClock(database, merchantId);
  const left = MAX_CLOCK_OFFSET_SECONDS - offsetSeconds;
  return errors.parameterInvalid(
    `A test clock can be at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (${MAX_CLOCK_OFFSET_SECONDS / YEAR_SECONDS} years) ahead; this one is ${offsetSeconds} ahead, so it can move ${left} more, not ${seconds}`,
    'seconds',
    `The test clock can be at most ${MAX_CLOCK_OFFSET_SECONDS / YEAR_SECONDS} years ahead; it can move ${left.toLocaleString('en-US')} seconds more.`,
  );
}
