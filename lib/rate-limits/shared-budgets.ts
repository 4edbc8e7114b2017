import { randomUUID } from 'node:crypto';
import { describeError, log } from '@/lib/log';
import { windowKey, type Claim, type Granted } from './repository';

// Rate limits shared by every web process without a round trip per request. Windows are fixed slices of the
// clock, the same in every process. A process spends tokens it holds for a bucket's current window; every
// SETTLE_MS, in the background, it claims more in one statement for all its buckets, and PostgreSQL hands
// out at most the limit of each window to all processes together (lib/rate-limits/repository.ts). So the
// limit holds exactly however many processes share it. A process claims what its pace says it will need
// (at most a fair part of what is left, so that several busy processes share), and some settlements before
// a window ends it claims for the next one, so that a busy bucket's first requests of a window find tokens.
//
// A request under its limits never waits for the background cycle. When a process holds no token of a window
// that no settlement has answered for yet (a key or merchant idle until now, or a new window of a paced one),
// or that still had tokens to hand out at the last settlement (a paced key, whose settlement claimed what its
// pace said it would spend), it serves from a small allowance on credit and claims what it spent at its next
// settlement. A process spends at most its allowance on credit in a window, and the allowances of all
// processes together are at most a tenth of the limit, so that is all the limit can be passed by, in a window
// the others used up unseen. A request that finds neither a token nor allowance, while the window still had
// tokens to hand out, waits for the next settlement, which claims for it, and for more while the window it
// lands in has tokens to hand out (up to MAX_WAIT_MS: on a loaded machine a settlement may end after the
// window it claimed for, and a count of settlements ran out before the tokens did), instead of being refused.

export const SETTLE_MS = 100;
/** how long a process that has not claimed still counts as present */
export const PRESENT_MS = 2_000;
/** how long a request without a token may wait for settlements, while its window has tokens to hand out */
export const MAX_WAIT_MS = 5_000;
/** how long before a window ends a process claims for the next one */
const CLAIM_AHEAD_MS = 3 * SETTLE_MS;
/** the part of a limit that all processes together may spend on credit in a window */
const ALLOWANCE_SHARE = 0.1;
/** while PostgreSQL cannot be reached, the longest a process waits between two tries to settle */
const MAX_RETRY_MS = 2_000;
const IDLE_MS = 60_000;
const PURGE_EVERY = 600;

export type Outcome = {
  allowed: boolean;
  /** what is left of the limit in this window, as far as this process knows */
  remaining: number;
  msBeforeReset: number;
  /** refused for now, but the window had tokens to hand out at the last settlement: ask again after nextSettlement() */
  worthWaiting: boolean;
};

type Window = {
  start: number;
  /** held by this process, unspent; below zero, what it spent on credit and has not claimed yet */
  tokens: number;
  /** a settlement answered for this window: what all processes took of it is known, so nothing more on credit */
  heard: boolean;
  /** handed out to all processes, as of the last settlement */
  granted: number;
  /** requests that found no token since the last settlement */
  waiting: number;
  /** requests allowed here */
  spent: number;
  /** of which on credit, without a token: never more than the allowance in a window */
  credit: number;
  /** while claims cannot be settled: this process's share, taken once */
  fallback: boolean;
};

type Bucket = { name: string; points: number; windowMs: number; current: Window; next?: Window; lastSeen: number };

type Settle = (self: string, claims: Claim[]) => Promise<Granted>;
type Depart = (self: string) => Promise<void>;

const newWindow = (start: number): Window => ({
  start,
  tokens: 0,
  heard: false,
  granted: 0,
  waiting: 0,
  spent: 0,
  credit: 0,
  fallback: false,
});

export class SharedBudgets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly self = `process:${randomUUID()}`;
  /** processes that claimed lately, this one included */
  private processes = 1;
  private settling = false;
  private failing = false;
  /** while failing: no try to settle before this time; the wait doubles after each failure */
  private retryAt = 0;
  private retryMs = SETTLE_MS;
  private ticks = 0;
  private timer?: NodeJS.Timeout;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly settle: Settle,
    private readonly purge: () => Promise<void> = async () => {},
    private readonly clock: () => number = Date.now,
    private readonly depart: Depart = async () => {},
  ) {}

  /** Spends one token of the bucket's current window, when this process holds one or may owe one. */
  consume(name: string, points: number, windowMs: number): Outcome {
    const now = this.clock();
    const bucket = this.bucket(name, points, windowMs, now);
    const window = bucket.current;
    if (window.tokens < 1 && this.failing && !window.fallback) {
      // PostgreSQL cannot be reached: keep to this process's share rather than refuse everything
      window.fallback = true;
      window.tokens += Math.floor(points / this.processes);
    }
    const toHandOut = Math.max(0, points - window.granted);
    const held = window.tokens >= 1;
    const allowed = held || ((!window.heard || toHandOut > 0) && window.credit < this.allowance(points));
    if (allowed) {
      if (!held) window.credit += 1;
      window.tokens -= 1;
      window.spent += 1;
    }
    const worthWaiting = !allowed && toHandOut > 0 && !this.failing;
    if (worthWaiting) window.waiting += 1;
    return {
      allowed,
      worthWaiting,
      remaining: Math.max(0, Math.floor(window.tokens) + toHandOut),
      msBeforeReset: window.start + windowMs - now,
    };
  }

  /** Resolves when a settlement that began after this call has ended (or after a second without one). */
  nextSettlement(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, 1000).unref();
    });
  }

  /** What this process may spend on credit in a window no settlement has answered for. */
  private allowance(points: number): number {
    return Math.floor((points * ALLOWANCE_SHARE) / this.processes);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), SETTLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops, and tells the others at once that this process no longer shares their limits. */
  async leave(): Promise<void> {
    this.stop();
    await this.depart(this.self);
  }

  /** One settlement of every bucket in use; exported for tests, which drive the clock. */
  async tick(): Promise<void> {
    if (this.settling) return;
    // a lost database is tried again after a growing wait, not ten times a second
    if (this.failing && this.clock() < this.retryAt) return;
    this.settling = true;
    this.ticks += 1;
    const waiters = this.waiters;
    this.waiters = [];
    try {
      const settled = await this.settleAll(this.clock());
      if (this.ticks % PURGE_EVERY === 0) await this.purge();
      // a tick with nothing to claim did not reach the database: it proves nothing
      if (settled && this.failing) {
        log.info('rate limits settle again');
        this.failing = false;
        this.retryMs = SETTLE_MS;
      }
    } catch (error) {
      // once, not ten times a second
      if (!this.failing) {
        log.warn('rate limits cannot settle; each process keeps to its share of each limit', describeError(error));
      }
      this.failing = true;
      this.retryAt = this.clock() + this.retryMs;
      this.retryMs = Math.min(2 * this.retryMs, MAX_RETRY_MS);
    } finally {
      this.settling = false;
      for (const resolve of waiters) resolve();
    }
  }

  /** False when there was nothing to settle, and the database was not asked. */
  private async settleAll(now: number): Promise<boolean> {
    const claims: Array<{ window: Window; claim: Claim }> = [];
    for (const bucket of this.buckets.values()) {
      this.roll(bucket, now);
      if (now - bucket.lastSeen > IDLE_MS) {
        this.buckets.delete(bucket.name);
        continue;
      }
      const window = bucket.current;
      const want = this.want(bucket, window, now);
      if (want > 0) claims.push({ window, claim: this.claim(bucket, window, want) });
      window.waiting = 0;
      const left = window.start + bucket.windowMs - now;
      if (!bucket.next && left <= CLAIM_AHEAD_MS && now - bucket.lastSeen < bucket.windowMs) {
        bucket.next = newWindow(window.start + bucket.windowMs);
        const ahead = this.ahead(bucket, window, now);
        if (ahead > 0) claims.push({ window: bucket.next, claim: this.claim(bucket, bucket.next, ahead) });
      }
    }
    // with nothing to claim, a process still says it is present, once a second
    if (claims.length === 0 && (this.ticks - 1) % (1000 / SETTLE_MS) !== 0) return false;
    const granted = await this.settle(
      this.self,
      claims.map(({ claim }) => claim),
    );
    this.processes = granted.otherProcesses + 1;
    for (const { window, claim } of claims) {
      const answer = granted.grants.get(windowKey(claim.bucket, claim.windowStart));
      if (!answer) continue;
      window.tokens += answer.grant;
      window.granted = answer.granted;
      window.heard = true;
    }
    return true;
  }

  private claim(bucket: Bucket, window: Window, want: number): Claim {
    return { bucket: bucket.name, windowStart: window.start, windowMs: bucket.windowMs, points: bucket.points, want };
  }

  /**
   * For the current window: the requests waiting, and what its pace says it will spend before the next
   * settlement but one, less what it holds; at most a fair part of what is left to hand out (the waiting
   * requests aside), so that busy processes share a window.
   */
  private want(bucket: Bucket, window: Window, now: number): number {
    const elapsed = Math.max(SETTLE_MS, now - window.start);
    const pace = Math.ceil((window.spent + window.waiting) * ((2 * SETTLE_MS) / elapsed));
    const wanted = Math.max(0, pace - Math.floor(window.tokens));
    const fair = Math.ceil(Math.max(0, bucket.points - window.granted) / this.processes);
    return Math.max(window.waiting, Math.min(wanted, fair));
  }

  /** For the next window: what this one's pace would spend in a whole window, at most a fair part of the limit. */
  private ahead(bucket: Bucket, window: Window, now: number): number {
    const elapsed = Math.max(SETTLE_MS, now - window.start);
    const pace = Math.ceil((window.spent + window.waiting) * (bucket.windowMs / elapsed));
    return Math.min(pace, Math.ceil(bucket.points / this.processes));
  }

  private bucket(name: string, points: number, windowMs: number, now: number): Bucket {
    let bucket = this.buckets.get(name);
    if (!bucket || bucket.points !== points || bucket.windowMs !== windowMs) {
      bucket = { name, points, windowMs, current: newWindow(now - (now % windowMs)), lastSeen: now };
      this.buckets.set(name, bucket);
    }
    bucket.lastSeen = now;
    this.roll(bucket, now);
    return bucket;
  }

  /** A new window: the tokens claimed ahead for it, if any. */
  private roll(bucket: Bucket, now: number): void {
    const start = now - (now % bucket.windowMs);
    if (bucket.current.start === start) return;
    bucket.current = bucket.next?.start === start ? bucket.next : newWindow(start);
    bucket.next = undefined;
  }
}
