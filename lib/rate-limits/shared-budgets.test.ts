import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { settleRateLimits } from './repository';
import { SETTLE_MS, SharedBudgets } from './shared-budgets';

// Two SharedBudgets on one database stand for two processes; a clock of the test's own moves time, and
// each "process" settles every SETTLE_MS of it, half a period apart, as their timers would.

const settleErrors: unknown[] = [];
afterEach(() => expect(settleErrors).toEqual([]));

function process(clock: () => number) {
  return new SharedBudgets(
    (settlements, self, second) =>
      db()
        .then((client) => settleRateLimits(client, settlements, self, second))
        .catch((error) => {
          settleErrors.push(error);
          throw error;
        }),
    undefined,
    clock,
  );
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

  it('let a process with little traffic claim only what it needs, and serve a burst after one settlement', async () => {
    let now = 4_000_000_000;
    const [a, b] = [process(() => now), process(() => now)];
    for (let tick = 0; tick <= 1000 / SETTLE_MS; tick += 1) {
      await a.tick();
      await b.tick();
      now += SETTLE_MS;
    }
    now += 1000 - (now % 1000);
    const bucket = `light:${randomUUID()}`;
    const served = (budgets: SharedBudgets, count: number) =>
      Array.from({ length: count }, () => budgets.consume(bucket, 50, 1000)).filter((o) => o.allowed).length;
    // a few requests on each, then a window's worth of settlements, the next window claimed ahead
    expect(served(a, 3)).toBe(3);
    expect(served(b, 3)).toBe(3);
    for (let tick = 0; tick < 1000 / SETTLE_MS; tick += 1) {
      now += SETTLE_MS;
      await a.tick();
      await b.tick();
    }
    // twenty at once on the second in the next window: those past its tokens wait for its next settlement
    const first = Array.from({ length: 20 }, () => b.consume(bucket, 50, 1000));
    const waiting = first.filter((outcome) => outcome.worthWaiting).length;
    const settled = b.nextSettlement();
    await b.tick();
    await settled;
    const again = Array.from({ length: waiting }, () => b.consume(bucket, 50, 1000, true));
    const servedOnB = [...first, ...again].filter((outcome) => outcome.allowed).length;
    expect(servedOnB).toBe(20);
  });

  async function hammer(start: number, requestsPerStep: [number, number]) {
    let now = start;
    const [a, b] = [process(() => now), process(() => now)];
    // fresh processes, started a second ago: idle, each has announced itself to the other
    for (let tick = 0; tick <= 1000 / SETTLE_MS; tick += 1) {
      await a.tick();
      await b.tick();
      now += SETTLE_MS;
    }
    now += 1000 - (now % 1000);

    const bucket = `hammered:${randomUUID()}`;
    const points = 50;
    const seconds = 10;
    let served = 0;
    const stepMs = 10;
    for (let step = 0; step < (seconds * 1000) / stepMs; step += 1) {
      for (const [index, budgets] of [a, b].entries()) {
        for (let request = 0; request < requestsPerStep[index]; request += 1)
          if (budgets.consume(bucket, points, 1000).allowed) served += 1;
      }
      now += stepMs;
      if (step % (SETTLE_MS / stepMs) === 0) await a.tick();
      if (step % (SETTLE_MS / stepMs) === SETTLE_MS / stepMs / 2) await b.tick();
    }
    return served / (points * seconds);
  }

  it('hold two fresh processes, hammered alike, within 10 % of one limit from the first window', async () => {
    expect(Math.abs((await hammer(2_000_000_000, [20, 20])) - 1)).toBeLessThanOrEqual(0.1);
  });

  it('hold them within 10 % when one gets nine requests in ten', async () => {
    expect(Math.abs((await hammer(3_000_000_000, [18, 2])) - 1)).toBeLessThanOrEqual(0.1);
  });
});

describe('shared rate budgets on a loaded machine', () => {
  it('hold a steady rate and its burst within 10 % when settlements run up to 300 ms late', async () => {
    let now = 5_000_000_000;
    const processes = [process(() => now), process(() => now)];
    const due = [now, now + SETTLE_MS / 2];
    let seed = 7;
    const late = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647) * 300;
    const advance = async () => {
      now += 10;
      for (const [index, budgets] of processes.entries()) {
        if (now < due[index]) continue;
        await budgets.tick();
        due[index] = now + SETTLE_MS + late();
      }
    };
    // started a while ago, idle: each has announced itself to the other
    do await advance();
    while (now % 10_000 !== 0);

    // per second 50, and 50 more once in 10 s, composed as lib/api/rate-limit.ts does
    const key = randomUUID();
    let served = 0;
    for (let step = 0; step < 800; step += 1) {
      for (let request = 0; request < 10; request += 1) {
        for (const budgets of processes) {
          const steady = budgets.consume(`${key}:s`, 50, 1000).allowed;
          if (steady || budgets.consume(`${key}:b`, 50, 10_000).allowed) served += 1;
        }
      }
      await advance();
    }
    const budget = 8 * 50 + 50;
    expect(Math.abs(served - budget) / budget).toBeLessThanOrEqual(0.1);
  });
});
