import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { env } from '@/lib/env';

// Database round trips of one /v1 request, counted when DB_COUNT_ROUND_TRIPS is on (test/api/round-trips.test.ts,
// docs/performance.md). node-postgres sends a client's queries one at a time and waits for each answer, so
// every query on any pg client of this process (Prisma's pool, sql(), the rate limiter's) is one round trip.

type Counter = { roundTrips: number };

const requests = new AsyncLocalStorage<Counter>();
const globalForCounting = globalThis as unknown as { sandboxRoundTripsPatched?: boolean };

// A query sent through the pool is counted where it was asked for: the pool hands it to a client in a
// callback that runs in whatever request released that client, so counting it there would charge it to
// that other request (or to none). Its config object then reaches Client.query, which leaves it alone.
const countedByThePool = new WeakSet<object>();

function countEveryQuery(): void {
  if (globalForCounting.sandboxRoundTripsPatched) return;
  globalForCounting.sandboxRoundTripsPatched = true;
  const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
  pg.Pool.prototype.query = function countedPoolQuery(this: pg.Pool, ...args: unknown[]) {
    const counter = requests.getStore();
    if (counter && typeof args[0] === 'object' && args[0] !== null) {
      counter.roundTrips += 1;
      countedByThePool.add(args[0]);
    }
    return poolQuery.apply(this, args);
  } as typeof pg.Pool.prototype.query;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    if (typeof config === 'object' && config !== null && countedByThePool.has(config)) {
      countedByThePool.delete(config);
    } else {
      const counter = requests.getStore();
      if (counter) counter.roundTrips += 1;
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

/** Runs `work`, and when counting is on, says how many round trips it made (null when off). */
export async function countRoundTrips<T>(work: () => Promise<T>): Promise<{ result: T; roundTrips: number | null }> {
  if (!env().DB_COUNT_ROUND_TRIPS) return { result: await work(), roundTrips: null };
  countEveryQuery();
  const counter: Counter = { roundTrips: 0 };
  const result = await requests.run(counter, work);
  return { result, roundTrips: counter.roundTrips };
}
