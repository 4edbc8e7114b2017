import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { claimRateLimitTokens, deleteRateLimitProcess } from './repository';
import { PRESENT_MS, SETTLE_MS, SharedBudgets } from './shared-budgets';

// SharedBudgets on one database stand for web processes; the test's own clock moves time, and each
// "process" settles every SETTLE_MS of it, as its timer would.

const started: SharedBudgets[] = [];
// each test's processes leave, so that the next test's do not count them as present
afterEach(async () => {
  for (const one of started.splice(0)) await one.leave();
});

function processes(count: number, clock: () => number): SharedBudgets[] {
  const made = Array.from(
    { length: count },
    () =>
      new SharedBudgets(
        async (self, claims) => claimRateLimitTokens(await db(), self, claims, PRESENT_MS),
        undefined,
        clock,
        async (self) => deleteRateLimitProcess(await db(), self),
      ),
  );
  started.push(...made);
  return made;
}

/** A second of settlements, in which each idle process says it is present once: then each knows the others. */
async function meet(all: SharedBudgets[]) {
  for (let tick = 0; tick <= 1000 / SETTLE_MS; tick += 1) for (const one of all) await one.tick();
}

const LIMIT = 50;
/** how many settlements a test lets requests without a token wait for */
const SETTLEMENTS = 5;

/** One window of a bucket: each process gets `load[i]` requests per settlement period; returns how many were allowed. */
async function window(all: SharedBudgets[], bucket: string, load: number[], clock: { now: number }) {
  clock.now += 1000 - (clock.now % 1000);
  let allowed = 0;
  for (let tick = 0; tick < 1000 / SETTLE_MS; tick += 1) {
    all.forEach((one, i) => {
      for (let n = 0; n < load[i]; n += 1) if (one.consume(bucket, LIMIT, 1000).allowed) allowed += 1;
    });
    for (const one of all) await one.tick();
    clock.now += SETTLE_MS;
  }
  return allowed;
}

describe('shared rate budgets', () => {
  it('give a process alone the whole limit of each window, and not one more', async () => {
    const clock = { now: 1_000_000_000 };
    const [alone] = processes(1, () => clock.now);
    const bucket = `alone:${randomUUID()}`;
    /** 80 requests at once; those without a token wait for the settlements, as requests do */
    const served = async () => {
      let outcomes = Array.from({ length: 80 }, () => alone.consume(bucket, LIMIT, 1000));
      let allowed = outcomes.filter((o) => o.allowed).length;
      for (let waits = 0; waits < SETTLEMENTS && outcomes.some((o) => o.worthWaiting); waits += 1) {
        await alone.tick();
        outcomes = outcomes.filter((o) => o.worthWaiting).map(() => alone.consume(bucket, LIMIT, 1000));
        allowed += outcomes.filter((o) => o.allowed).length;
      }
      return allowed;
    };
    expect(await served()).toBe(LIMIT);
    clock.now += 400;
    expect(await served()).toBe(0);
    clock.now += 600;
    expect(await served()).toBe(LIMIT);
  });

  it.each([
    ['alike', [20, 20]],
    ['9 to 1', [18, 2]],
    ['one of two', [20, 0]],
  ])('hold two hammered processes, %s, within 10 %% of the limit in every window', async (_name, load) => {
    const clock = { now: 2_000_000_000 };
    const all = processes(2, () => clock.now);
    await meet(all);
    const bucket = `two:${randomUUID()}`;
    for (let round = 0; round < 5; round += 1) {
      const allowed = await window(all, bucket, load, clock);
      expect(allowed).toBeLessThanOrEqual(1.1 * LIMIT);
      expect(allowed).toBeGreaterThanOrEqual(0.9 * LIMIT);
    }
  });

  it('serve a burst on one of two processes in full, within the settlements a request may wait for', async () => {
    const clock = { now: 3_000_000_000 };
    const [busy, idle] = processes(2, () => clock.now);
    await meet([busy, idle]);
    const bucket = `burst:${randomUUID()}`;
    clock.now += 1000 - (clock.now % 1000);
    let waiting = Array.from({ length: LIMIT }, () => busy.consume(bucket, LIMIT, 1000)).filter((o) => !o.allowed);
    // the first part at once (this process's share), the rest as settlements find the window unused
    expect(waiting.length).toBeGreaterThan(0);
    for (let waits = 0; waits < SETTLEMENTS && waiting.length > 0; waits += 1) {
      expect(waiting.every((outcome) => outcome.worthWaiting)).toBe(true);
      await busy.tick();
      await idle.tick();
      clock.now += SETTLE_MS;
      waiting = waiting.map(() => busy.consume(bucket, LIMIT, 1000)).filter((o) => !o.allowed);
    }
    expect(waiting).toHaveLength(0);
    const over = busy.consume(bucket, LIMIT, 1000);
    expect([over.allowed, over.worthWaiting]).toEqual([false, false]);
  });

  it("serve an idle key's first request at once, and claim it at the next settlement", async () => {
    const clock = { now: 4_000_000_000 };
    const [one, other] = processes(2, () => clock.now);
    await meet([one, other]);
    const bucket = `idle:${randomUUID()}`;
    // no settlement has claimed anything for this bucket: a request is served without waiting for one
    const first = one.consume(bucket, LIMIT, 1000);
    expect(first.allowed).toBe(true);
    await one.tick();
    // what it spent on credit is claimed: the other process sees one token fewer to hand out
    await other.tick();
    expect(other.consume(bucket, LIMIT, 1000).remaining).toBe(LIMIT - 1);
    // a window later, idle again, the same
    clock.now += 2000;
    expect(one.consume(bucket, LIMIT, 1000).allowed).toBe(true);
  });

  it('serve a request at once in a window a settlement answered for, when the tokens it claimed are spent and the window is far from its limit', async () => {
    const clock = { now: 4_500_000_000 };
    const all = processes(2, () => clock.now);
    await meet(all);
    const [one] = all;
    const bucket = `paced:${randomUUID()}`;
    clock.now += 1000 - (clock.now % 1000);
    expect(one.consume(bucket, LIMIT, 1000).allowed).toBe(true);
    // the settlement answers for the window, claiming what its pace so far says: the token owed and two more
    await one.tick();
    clock.now += 300;
    // three requests before the next settlement (two keys of a merchant, say): two tokens, then the rest of
    // the allowance (two a window for each of the two processes, one spent on the first request)
    const outcomes = Array.from({ length: 3 }, () => one.consume(bucket, LIMIT, 1000));
    expect(outcomes.map((outcome) => outcome.allowed)).toEqual([true, true, true]);
    // the allowance spent, the next waits for the settlement as before
    const past = one.consume(bucket, LIMIT, 1000);
    expect([past.allowed, past.worthWaiting]).toEqual([false, true]);
  });

  it('pass the limit by no more than a tenth when processes spend on credit in a window the others used up', async () => {
    const clock = { now: 5_000_000_000 };
    const [busy, late] = processes(2, () => clock.now);
    await meet([busy, late]);
    const bucket = `credit:${randomUUID()}`;
    clock.now += 1000 - (clock.now % 1000);
    let allowed = 0;
    for (let tick = 0; tick < 5; tick += 1) {
      for (let n = 0; n < LIMIT; n += 1) if (busy.consume(bucket, LIMIT, 1000).allowed) allowed += 1;
      await busy.tick();
    }
    expect(allowed).toBeGreaterThanOrEqual(LIMIT);
    // the other process has not settled since: it knows nothing of the window and spends its allowance
    for (let n = 0; n < LIMIT; n += 1) if (late.consume(bucket, LIMIT, 1000).allowed) allowed += 1;
    await late.tick();
    for (let n = 0; n < LIMIT; n += 1) if (late.consume(bucket, LIMIT, 1000).allowed) allowed += 1;
    expect(allowed).toBeGreaterThan(LIMIT);
    expect(allowed).toBeLessThanOrEqual(1.1 * LIMIT);
  });

  it('try a lost database again after a wait that grows to two seconds, not at every settlement', async () => {
    const clock = { now: 6_000_000_000 };
    const tries: number[] = [];
    const lost = new SharedBudgets(
      async () => {
        tries.push(clock.now);
        throw new Error('connect ECONNREFUSED');
      },
      undefined,
      () => clock.now,
    );
    // ten seconds of settlements, a request in each: before, each one tried the database
    for (let tick = 0; tick < 10_000 / SETTLE_MS; tick += 1) {
      lost.consume(`lost:${tick % 3}`, LIMIT, 1000);
      await lost.tick();
      clock.now += SETTLE_MS;
    }
    expect(tries.length).toBeLessThanOrEqual(10);
    const waits = tries.slice(1).map((at, i) => at - tries[i]);
    // a settlement with nothing new to claim may put a try off by one more
    expect(waits.at(-1)).toBeGreaterThanOrEqual(2_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2_000 + SETTLE_MS);
  });
});
