import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, type StreamClient } from '@/test/support/event-stream-client';
import { createClusterMerchant, query, startCluster, stopCluster, type Cluster } from './cluster';

// Many open event streams cost the database one read of events per new event per web process, not one per
// stream, and leave other merchants' requests fast; past its limits a process refuses a stream with 429. Two
// web processes and no worker: what reads events here is the streams alone.

const MERCHANTS = 10;
const STREAMS_PER_MERCHANT = 20;
const EVENTS = 30;
const PER_ADDRESS = 110;

let cluster: Cluster;
const merchants: { merchantId: string; key: string }[] = [];
let reader: { merchantId: string; key: string };
const streams: StreamClient[] = [];

beforeAll(async () => {
  cluster = await startCluster({
    webs: 2,
    workers: 0,
    env: {
      EVENT_STREAM_PING_MS: '60000',
      EVENT_STREAMS_PER_ADDRESS: String(PER_ADDRESS),
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      RATE_LIMIT_MERCHANT_PER_SECOND: '100000',
      RATE_LIMIT_MERCHANT_BURST: '100000',
    },
  });
  for (let n = 0; n <= MERCHANTS; n += 1) {
    const made = await createClusterMerchant(cluster, 1, 'http://127.0.0.1:9/hooks');
    const merchant = { merchantId: made.merchantId, key: made.keys[0] };
    if (n < MERCHANTS) merchants.push(merchant);
    else reader = merchant;
  }
}, 180_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  await stopCluster(cluster, undefined);
});

/**
 * Scans of the events table so far: every read of events (a stream's, or a process's read for its streams) is
 * one, while writing an event and the other merchant's payments reads are none.
 */
async function eventReads(): Promise<number> {
  const [row] = await query<{ count: string }>(
    cluster.databaseUrl,
    `SELECT seq_scan + COALESCE(idx_scan, 0) AS count FROM pg_stat_user_tables WHERE relname = 'events'`,
  );
  return Number(row.count);
}

/** Waits until the database's statistics hold what was committed before (a backend reports them within a second of going idle). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));

async function open(web: number, key: string) {
  const stream = await openStream(key, { baseUrl: cluster.webs[web].url });
  if (stream.status === 200) {
    streams.push(stream);
    await stream.waitForComments(1);
  }
  return stream;
}

/** GET /v1/payments of a merchant with no stream, one after another on both processes, until stopped. */
function readsOfAnotherMerchant() {
  const latencies: number[] = [];
  const statuses = new Set<number>();
  let reading = true;
  const done = (async () => {
    for (let n = 0; reading; n += 1) {
      const startedAt = performance.now();
      const answer = await fetch(`${cluster.webs[n % 2].url}/v1/payments?limit=10`, {
        headers: { Authorization: `Bearer ${reader.key}` },
      });
      await answer.arrayBuffer();
      latencies.push(performance.now() - startedAt);
      statuses.add(answer.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      reading = false;
      await done;
      return { latencies, statuses };
    },
  };
}

function percentile(latencies: number[], p: number): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) * p)]);
}

const summary = (latencies: number[]) =>
  `(${latencies.length}): median ${percentile(latencies, 0.5)} ms, p95 ${percentile(latencies, 0.95)} ms, max ${percentile(latencies, 1)} ms`;

describe('event streams, 200 of them over 10 merchants on two web processes', () => {
  it('cost a read per event per process, and another merchant reads in under 100 ms meanwhile', async () => {
    const byMerchant = new Map<string, StreamClient[]>();
    for (const merchant of merchants) {
      const opened = await Promise.all(
        Array.from({ length: STREAMS_PER_MERCHANT }, (_, n) => open(n % 2, merchant.key)),
      );
      expect(opened.map((stream) => stream.status)).toEqual(opened.map(() => 200));
      byMerchant.set(merchant.merchantId, opened);
    }

    await settle();
    process.env.DATABASE_URL = cluster.databaseUrl;
    const { db } = await import('@/lib/db');
    const { emitEvent } = await import('@/lib/events/service');
    const client = await db();
    // another merchant's reads, first with the streams open and quiet, then while the events are written
    const quiet = readsOfAnotherMerchant();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const quietReads = await quiet.stop();
    const meanwhile = readsOfAnotherMerchant();

    const start = await eventReads();
    const startedAt = Date.now();
    const made = new Map<string, string[]>();
    for (let n = 0; n < EVENTS; n += 1) {
      const { merchantId } = merchants[n % MERCHANTS];
      const id = await emitEvent(client, merchantId, 'payment.failed', { id: `pay_fan_${n}`, object: 'payment' });
      made.set(merchantId, [...(made.get(merchantId) ?? []), id]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const [merchantId, ids] of made)
      for (const stream of byMerchant.get(merchantId)!) {
        await stream.waitForMessages(ids.length, 10_000);
        expect(stream.messages.map((message) => message.id)).toEqual(ids);
      }
    const elapsedMs = Date.now() - startedAt;
    const { latencies, statuses } = await meanwhile.stop();
    await settle();
    const reads = (await eventReads()) - start;
    const perEventPerProcess = reads / EVENTS / cluster.webs.length;
    console.log(
      `${merchants.length * STREAMS_PER_MERCHANT} streams, ${EVENTS} events in ${elapsedMs} ms: ${reads} reads of events ` +
        `= ${perEventPerProcess.toFixed(2)} per event per process; another merchant's GET /v1/payments ` +
        `meanwhile ${summary(latencies)}, before the events ${summary(quietReads.latencies)}`,
    );
    expect(new Set([...statuses, ...quietReads.statuses])).toEqual(new Set([200]));
    expect(perEventPerProcess).toBeLessThanOrEqual(3);
    expect(percentile(latencies, 0.5)).toBeLessThan(100);
  });

  it('refuse a stream past the limit per merchant and per client address, with 429 and Retry-After', async () => {
    // each process holds 100 streams from this address now, 10 of each merchant
    const [first] = merchants;
    const own = await Promise.all(Array.from({ length: 10 }, () => open(0, first.key)));
    expect(own.map((stream) => stream.status)).toEqual(own.map(() => 200));

    const pastMerchant = await open(0, first.key);
    expect([pastMerchant.status, pastMerchant.error?.error.code]).toEqual([429, 'rate_limited']);
    expect(pastMerchant.error?.error.message).toMatch(/hold 20 at once .*EVENT_STREAMS_PER_MERCHANT/);
    expect(Number(pastMerchant.headers.get('retry-after'))).toBeGreaterThan(0);

    // the first process now holds 110 from this address: another merchant's stream is refused there too
    const pastAddress = await open(0, reader.key);
    expect([pastAddress.status, pastAddress.error?.error.code]).toEqual([429, 'rate_limited']);
    expect(pastAddress.error?.error.message).toMatch(
      new RegExp(`at most ${PER_ADDRESS} at once .*EVENT_STREAMS_PER_ADDRESS`),
    );
    expect(Number(pastAddress.headers.get('retry-after'))).toBeGreaterThan(0);
    // a process counts its own streams
    expect((await open(1, reader.key)).status).toBe(200);

    // a stream closed frees its place
    own[0].close();
    const deadline = Date.now() + 5_000;
    let again = await open(0, first.key);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await open(0, first.key);
    }
    expect(again.status).toBe(200);
  });
});
