import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '@/test/support/event-stream-client';
import { createClusterMerchant, startCluster, stopCluster, type Cluster } from './cluster';
import { contextOf } from '@/test/context';

// Two web processes keep API keys and merchant settings in memory and count rate limits in memory too
// (docs/performance.md). A change made elsewhere (here by this test process, through the services, as
// the admin CLI's revoke-key and the dashboard do) reaches both within a second, and the two together
// hold one key's rate within 10 %. An event written through either reaches the event streams open on both.

// low enough that 16 senders press the key well past its budget on a loaded 2-core machine too
const PER_SECOND = 10;
const BURST = 20;
/** keys the removed website's test sends with in turn, each kept under its own limit */
const SPARE_KEYS = 20;

let cluster: Cluster;
let merchantId: string;
const keys: string[] = [];

beforeAll(async () => {
  cluster = await startCluster({
    webs: 2,
    workers: 0,
    env: {
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
      RATE_LIMIT_MERCHANT_PER_SECOND: '100000',
      RATE_LIMIT_MERCHANT_BURST: '100000',
    },
  });
  const made = await createClusterMerchant(cluster, 3 + SPARE_KEYS, 'http://127.0.0.1:9/hooks');
  merchantId = made.merchantId;
  keys.push(...made.keys);
}, 180_000);

afterAll(() => stopCluster(cluster, undefined));

const get = (web: number, key: string) =>
  fetch(`${cluster.webs[web].url}/v1/payments?limit=1`, { headers: { Authorization: `Bearer ${key}` } });

const createSession = (web: number, key: string) =>
  fetch(`${cluster.webs[web].url}/v1/checkout-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({
      order_reference: randomUUID(),
      currency: 'USD',
      items: [{ name: 'Bike', quantity: 1, unit_amount: 1000 }],
      amount: 1000,
      return_url: 'https://shop.example.com/thanks',
    }),
  });

/** The status, with the body when it is not the one expected, so that a failure says why. */
async function statusOf(response: Promise<Response>, expected: number): Promise<number | string> {
  const answer = await response;
  return answer.status === expected ? expected : `${answer.status} ${await answer.text()}`;
}

/** How long each web process takes, from now, until `refused` says its answer is a refusal. */
function timeUntilRefused(send: (web: number) => Promise<Response>, refused: (status: number) => boolean) {
  const startedAt = performance.now();
  return Promise.all(
    cluster.webs.map(async (_, web) => {
      while (performance.now() - startedAt < 5_000) {
        if (refused((await send(web)).status)) return performance.now() - startedAt;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Infinity;
    }),
  );
}

async function services() {
  const { db } = await import('@/lib/db');
  const { revokeApiKey } = await import('@/lib/api-keys/service');
  const { removeWebsite } = await import('@/lib/merchants/service');
  return { client: await db(), revokeApiKey, removeWebsite };
}

describe('two web processes with keys, settings and rate limits in memory', () => {
  it('refuse a revoked key within a second of its revocation, and by the time revoking returns', async () => {
    const key = keys[0];
    for (const web of [0, 1]) for (let i = 0; i < 3; i++) expect(await statusOf(get(web, key), 200)).toBe(200);
    const { client, revokeApiKey } = await services();
    const [{ id }] = await client.apiKey.findMany({ where: { merchantId }, orderBy: { createdAt: 'asc' }, take: 1 });
    const revoking = revokeApiKey(contextOf(client, merchantId), id);
    const times = await timeUntilRefused(
      (web) => get(web, key),
      (status) => status === 401,
    );
    expect(Math.max(...times)).toBeLessThan(1_000);
    // and revoking returns only when no process serves the key any more
    expect(await revoking).toBe(true);
    for (const web of [0, 1]) expect((await get(web, key)).status).toBe(401);
  });

  it('refuse a session for a website removed from the account within a second', async () => {
    const key = keys[1];
    for (const web of [0, 1])
      for (let i = 0; i < 3; i++) expect(await statusOf(createSession(web, key), 201)).toBe(201);
    const { client, removeWebsite } = await services();
    await removeWebsite(contextOf(client, merchantId), 'shop.example.com');
    // each attempt with the next key, so that no key's rate limit answers before the website check does
    let sent = 0;
    const times = await timeUntilRefused(
      (web) => createSession(web, keys[3 + (sent++ % SPARE_KEYS)]),
      (status) => status === 400,
    );
    expect(Math.max(...times)).toBeLessThan(1_000);
  });

  it("hold one key's rate within 10 % while both are hammered", async () => {
    const key = keys[2];
    // start on a second, as the windows do, and stop sending well before the last one ends, so that no
    // request still in flight lands in the window after it (each window's budget goes in its first moments)
    const seconds = 4;
    const startAt = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
    const stopAt = startAt + seconds * 1000 - 500;
    const answers: Array<{ status: number; headers: Headers; web: number; at: number }> = [];
    await Promise.all(
      Array.from({ length: 16 }, async (_, connection) => {
        while (Date.now() < stopAt) {
          const response = await get(connection % 2, key);
          await response.arrayBuffer();
          answers.push({ status: response.status, headers: response.headers, web: connection % 2, at: Date.now() });
        }
      }),
    );
    const served = answers.filter((answer) => answer.status === 200).length;
    const burstWindows = new Set([Math.floor(startAt / 10_000), Math.floor(stopAt / 10_000)]).size;
    const budget = PER_SECOND * seconds + (BURST - PER_SECOND) * burstWindows;
    // served per second of answers and per process, to read a failure by
    const perSecond: Record<number, [number, number]> = {};
    for (const answer of answers.filter(({ status }) => status === 200))
      (perSecond[Math.floor((answer.at - startAt) / 1000)] ??= [0, 0])[answer.web] += 1;
    console.log(`two processes hammered: ${served} served of a budget of ${budget}; ${answers.length} sent`, perSecond);
    expect(answers.length).toBeGreaterThan(1.5 * budget);
    expect(Math.abs(served - budget) / budget).toBeLessThanOrEqual(0.1);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.headers.get('ratelimit-limit')).toBe(String(PER_SECOND));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('the event stream across web processes', () => {
  it('brings an event written through one web process to the streams open on both', async () => {
    const {
      keys: [key],
    } = await createClusterMerchant(cluster, 1, 'http://127.0.0.1:9/hooks');
    const streams = await Promise.all(cluster.webs.map((web) => openStream(key, { baseUrl: web.url })));
    try {
      // the session made through the first process, expired through the second: its event written there
      const session = await (await createSession(0, key)).json();
      const expired = await fetch(`${cluster.webs[1].url}/v1/checkout-sessions/${session.id}/expire`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(expired.status).toBe(200);
      const events = await fetch(`${cluster.webs[0].url}/v1/events?type=checkout_session.expired`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      const [event] = (await events.json()).data as { id: string }[];
      for (const stream of streams) {
        expect(stream.status).toBe(200);
        // nothing else happens to this new merchant: the one message is that event
        expect((await stream.waitForMessages(1, 5_000)).map((message) => message.id)).toEqual([event.id]);
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
