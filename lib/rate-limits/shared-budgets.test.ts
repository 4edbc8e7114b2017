import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { settleRateLimits } from './repository';
import { SETTLE_MS, SharedBudgets } from './shared-budgets';

// Two SharedBudgets on one database stand for two processes; a clock of the test's own moves time, and
// each "process" settles every SETTLE_MS of it, half a period apart, as their timers would.

function process(clock: () => number) {
  return new SharedBudgets(async (settlements) => settleRateLimits(await db(), settlements), undefined, clock);
}

describe('shared rate budgets', () => {
  it('give a process alone the whole limit of each window, and not one more', async () => {
    let now = 1_000_000 * 1000;
    const alone = process(() => now);
    const bucket = `alone:${randomUUID()}`;
    const served = () => Array.from({ length: 80 }, () => alone.consume(bucket, 50, 1000)).filter((o) => o.allowed);
    expect(served()).toHaveLength(50);
    await alone.tick();
    now += 400;
    expect(served()).toHaveLength(0);
    now += 600;
    await alone.tick();
    expect(served()).toHaveLength(50);
  });

  it('hold two hammered processes together within 10 % of one limit', async () => {
    let now = 2_000_000 * 1000;
    const [a, b] = [process(() => now), process(() => now)];
    // processes that have served traffic know their part of it: warm both on buckets of their own
    for (let step = 0; step < 50; step += 1) {
      for (const budgets of [a, b]) budgets.consume(`warm:${randomUUID()}`, 1000, 1000);
      now += SETTLE_MS / 2;
      await (step % 2 === 0 ? a : b).tick();
    }
    now += 1000 - (now % 1000);

    const bucket = `hammered:${randomUUID()}`;
    const points = 50;
    const seconds = 10;
    let served = 0;
    const stepMs = 10;
    for (let step = 0; step < (seconds * 1000) / stepMs; step += 1) {
      for (let request = 0; request < 20; request += 1) {
        for (const budgets of [a, b]) if (budgets.consume(bucket, points, 1000).allowed) served += 1;
      }
      now += stepMs;
      if (step % (SETTLE_MS / stepMs) === 0) await a.tick();
      if (step % (SETTLE_MS / stepMs) === SETTLE_MS / stepMs / 2) await b.tick();
    }
    expect(Math.abs(served - points * seconds) / (points * seconds)).toBeLessThanOrEqual(0.1);
  });
});
