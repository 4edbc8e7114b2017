import { randomUUID } from 'node:crypto';
import { describeError, log } from '@/lib/log';
import type { Settled, Settlement } from './repository';

// Rate limits shared by every process without a round trip per request. Windows are fixed slices of the
// clock, the same in every process. A process answers from tokens it holds for the current window, and
// every SETTLE_MS settles with the window's row in PostgreSQL: it reports the requests it saw and claims
// more tokens, never past the limit. It claims its part of the bucket's traffic in the last whole window
// (all of it when it serves a key alone), but no more than its pace says it will need, so that a process
// with little traffic leaves the rest to others; some ticks before a window ends it claims its part of
// the next one, so the first requests of a window are served from tokens already held, even when its
// timer runs late. A request past its tokens, while the window had unclaimed ones at the last
// settlement, waits for the next settlement (at most SETTLE_MS and a round trip), which claims for it.
//
// One exception keeps a process from refusing what it cannot yet know about: the first request of a
// window in which it holds no tokens (a key it has not served lately) takes 1/n of the limit on credit,
// n being the processes that settled lately (each does at least once a second, from start-up), recorded
// at the next settlement whatever others hold; and the process claims no more for a few ticks, until the
// others' credit is in the row. So all credits together stay about within the limit, and credit is the
// only way past it.

export const SETTLE_MS = 100;
/** how long before a window a process claims its part of it: a few settlements, so that a late timer still makes it */
const CLAIM_AHEAD_MS = 5.5 * SETTLE_MS;
/** how long a process that took credit claims no more: others may have taken theirs, unknown to the row until they settle */
const CREDIT_REPORTED_MS = 5 * SETTLE_MS;
/** how far back a process counts the others that settled (each does at least once a second) */
export const PROCESSES_SEEN_MS = 10_000;
const IDLE_MS = 60_000;
const PURGE_EVERY = 600;

export type Outcome = {
  allowed: boolean;
  remaining: number;
  msBeforeReset: number;
  /** refused for want of tokens here while the window had some unclaimed: ask again after nextSettlement() */
  worthWaiting: boolean;
};

type Window = {
  start: number;
  tokens: number;
  /** every process's tokens of this window, as of the last settlement */
  taken: number;
  /** settled or credited once: no credit any more */
  held: boolean;
  /** when this process took credit in it */
  creditAt?: number;
  /** requests refused that wait for the next settlement to claim tokens for them */
  waiting: number;
  /** not yet reported */
  credit: number;
  demand: number;
};

type Bucket = {
  name: string;
  points: number;
  windowMs: number;
  current: Window;
  next?: Window;
  /**
   * This process's part of the bucket's requests, 0 to 1: in the last whole window it settled, and so far
   * in the current one (early in a window, the first process to settle has it all).
   */
  share?: number;
  runningShare?: number;
  /** requests seen here in the current window */
  seen: number;
  lastSeen: number;
};

type Settle = (settlements: Settlement[], self: string, second: number) => Promise<Settled>;

const emptyWindow = (start: number): Window => ({
  start,
  tokens: 0,
  taken: 0,
  held: false,
  waiting: 0,
  credit: 0,
  demand: 0,
});

export class SharedBudgets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly self = `process:${randomUUID()}`;
  /** processes that settled in the last PROCESSES_SEEN_MS, this one included */
  private processes = 1;
  private settling = false;
  private failing = false;
  private ticks = 0;
  private timer?: NodeJS.Timeout;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly settle: Settle,
    private readonly purge: () => Promise<void> = async () => {},
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes one token of the bucket's current window, when this process may; `again` after waiting. */
  consume(name: string, points: number, windowMs: number, again = false): Outcome {
    const now = this.clock();
    const bucket = this.bucket(name, points, windowMs, now);
    const window = bucket.current;
    if (!again) {
      window.demand += 1;
      bucket.seen += 1;
    }
    if (window.tokens < 1 && !window.held) {
      const credit = Math.max(1, Math.floor(points / this.processes));
      window.tokens += credit;
      window.credit += credit;
      window.creditAt = now;
      window.held = true;
    }
    const allowed = window.tokens >= 1;
    if (allowed) window.tokens -= 1;
    const unclaimed = Math.max(0, points - window.taken - window.credit);
    const worthWaiting = !allowed && !again && unclaimed > 0;
    if (worthWaiting) window.waiting += 1;
    return {
      allowed,
      worthWaiting,
      remaining: Math.floor(window.tokens) + unclaimed,
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

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), SETTLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One settlement of every bucket in use; exported for tests, which drive the clock. */
  async tick(): Promise<void> {
    if (this.settling) return;
    this.settling = true;
    this.ticks += 1;
    const waiters = this.waiters;
    this.waiters = [];
    try {
      await this.settleAll(this.clock());
      if (this.ticks % PURGE_EVERY === 0) await this.purge();
      if (this.failing) log.info('rate limits settle again');
      this.failing = false;
    } catch (error) {
      // once, not ten times a second
      if (!this.failing) {
        log.warn('rate limits cannot settle; each process keeps to 1/n of each limit meanwhile', describeError(error));
      }
      this.failing = true;
    } finally {
      this.settling = false;
      for (const resolve of waiters) resolve();
    }
  }

  private async settleAll(now: number): Promise<void> {
    const sent: Array<{ bucket: Bucket; window: Window; settlement: Settlement; seen: number }> = [];
    for (const bucket of this.buckets.values()) {
      this.roll(bucket, now);
      const window = bucket.current;
      const active = bucket.seen > 0;
      if (!active && window.credit === 0 && window.demand === 0) {
        if (now - bucket.lastSeen > IDLE_MS) this.buckets.delete(bucket.name);
        continue;
      }
      const share = bucket.share ?? 1 / this.processes;
      // Its part of what no process holds yet (all of it when alone), but no more than it will need this
      // window at its pace, so that a process with little traffic leaves the rest to the others; and at
      // least one when it holds none. Not soon after it took credit: others may have taken theirs too,
      // unknown to the row until they settle.
      const known = active && !(window.creditAt !== undefined && now - window.creditAt < CREDIT_REPORTED_MS);
      const left = window.start + bucket.windowMs - now;
      const needed = Math.max(0, this.need(bucket, now, left) - Math.floor(window.tokens));
      const wanted = known ? Math.min(needed, Math.ceil(share * Math.max(0, bucket.points - window.taken))) : 0;
      // and for the requests waiting on this settlement, unless others' credit may still be unreported
      const want = Math.max(active && window.tokens < 1 ? 1 : 0, wanted, known ? window.waiting : 0);
      window.waiting = 0;
      sent.push({ bucket, window, settlement: this.settlement(bucket, window, want), seen: bucket.seen });
      const nextStart = window.start + bucket.windowMs;
      if (active && !bucket.next && nextStart - now <= CLAIM_AHEAD_MS) {
        // the claim is under way: the window's first requests wait for it rather than take credit
        bucket.next = { ...emptyWindow(nextStart), held: true };
        const part = bucket.runningShare ?? share;
        const ahead = Math.max(1, Math.min(this.need(bucket, now, bucket.windowMs), Math.ceil(part * bucket.points)));
        sent.push({ bucket, window: bucket.next, settlement: this.settlement(bucket, bucket.next, ahead), seen: 0 });
      }
    }
    // this process's presence, with every settlement or once a second when idle
    const second = now - (now % 1000);
    if (sent.length === 0 && (this.ticks - 1) % (1000 / SETTLE_MS) !== 0) return;
    const presence = {
      bucket: this.self,
      windowStart: second,
      windowMs: 1000,
      points: 0,
      credit: 0,
      want: 0,
      demand: 0,
    };

    let settled: Settled;
    try {
      settled = await this.settle([...sent.map((item) => item.settlement), presence], this.self, second);
    } catch (error) {
      // what was not recorded is reported again next time
      for (const { window, settlement } of sent) {
        window.credit += settlement.credit;
        window.demand += settlement.demand;
        if (window.taken === 0 && window.tokens === 0) window.held = window.credit > 0;
      }
      throw error;
    }
    const byKey = new Map(settled.rows.map((row) => [`${row.bucket}@${row.windowStart}`, row]));
    for (const { bucket, window, settlement, seen } of sent) {
      const row = byKey.get(`${settlement.bucket}@${settlement.windowStart}`);
      if (!row) continue;
      window.tokens += row.granted;
      window.taken = row.taken;
      window.held = true;
      if (seen > 0 && row.demand > 0 && window === bucket.current) {
        bucket.runningShare = Math.min(1, seen / row.demand);
      }
    }
    this.processes = settled.otherProcesses + 1;
  }

  private settlement(bucket: Bucket, window: Window, want: number): Settlement {
    const settlement = {
      bucket: bucket.name,
      windowStart: window.start,
      windowMs: bucket.windowMs,
      points: bucket.points,
      credit: window.credit,
      want,
      demand: window.demand,
    };
    window.credit = 0;
    window.demand = 0;
    return settlement;
  }

  private bucket(name: string, points: number, windowMs: number, now: number): Bucket {
    let bucket = this.buckets.get(name);
    if (!bucket || bucket.points !== points || bucket.windowMs !== windowMs) {
      bucket = {
        name,
        points,
        windowMs,
        current: emptyWindow(now - (now % windowMs)),
        seen: 0,
        lastSeen: now,
      };
      this.buckets.set(name, bucket);
    }
    bucket.lastSeen = now;
    this.roll(bucket, now);
    return bucket;
  }

  /** A new window: the tokens claimed ahead for it, if any. Unreported requests of the old one are lost. */
  private roll(bucket: Bucket, now: number): void {
    const start = now - (now % bucket.windowMs);
    if (bucket.current.start === start) return;
    bucket.current = bucket.next?.start === start ? bucket.next : emptyWindow(start);
    bucket.next = undefined;
    if (bucket.runningShare !== undefined) bucket.share = bucket.runningShare;
    bucket.runningShare = undefined;
    bucket.seen = 0;
  }

  /**
   * About how many requests this process will see of the bucket in the next `ms`, at its current pace;
   * without limit when it is the only process, as nothing it holds could serve another.
   */
  private need(bucket: Bucket, now: number, ms: number): number {
    if (this.processes === 1) return bucket.points;
    const pace = bucket.seen / Math.max(SETTLE_MS, now - bucket.current.start);
    return Math.ceil(1.5 * pace * ms) + 1;
  }
}
