import { createHash } from 'node:crypto';
import type { Db } from '@/lib/db';
import { decrementThrottleHits, deleteEndedThrottles, deleteThrottle, incrementThrottleHits } from './repository';

// Fixed-window counters in PostgreSQL, shared by every web process: sign-in guesses, sign-ups and
// payment-link checkouts per client address, failed API keys per address. A hit is counted *before* the
// work it guards, in one atomic statement (see repository.ts), so a burst of parallel requests gets no
// more than the limit.
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
  return incrementThrottleHits(database, throttleKey(rule, who), rule.windowSeconds);
}

/** Takes back one hit: the guarded work turned out to be legitimate (a correct password). */
export async function giveBackHit(database: Db, { rule, who }: Hit): Promise<void> {
  await decrementThrottleHits(database, throttleKey(rule, who));
}

/** Starts the window afresh: only the rightful owner can cause this (a sign-in with the password). */
export async function clearHits(database: Db, { rule, who }: Hit): Promise<void> {
  await deleteThrottle(database, throttleKey(rule, who));
}

/** Windows that ended long ago say nothing any more; the longest window is an hour. */
export async function purgeEndedThrottles(database: Db): Promise<number> {
  return deleteEndedThrottles(database);
}
