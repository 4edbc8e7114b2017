import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { createClusterMerchant, query, startCluster, stopCluster, waitForAllDeliveries, type Cluster } from './cluster';

// Two web processes and two workers on one PostgreSQL: the money rules, idempotency, rate limits and
// webhook delivery hold across processes, not just within one.

let cluster: Cluster;
let receiver: TestReceiver;
const keys: string[] = [];

async function call(
  web: number,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey: string | null = randomUUID(),
) {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST' && idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const response = await fetch(`${cluster.webs[web % cluster.webs.length].url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const sessionBody = (order_reference: string, amount = 10_000) => ({
  order_reference,
  currency: 'USD',
  items: [{ name: 'Bike', quantity: 1, unit_amount: amount }],
  amount,
  return_url: 'https://shop.example.com/thanks',
});

beforeAll(async () => {
  // the merchant's keys together may go well past one key's limit here: the per-merchant limit has its own test
  cluster = await startCluster({
    webs: 2,
    workers: 2,
    env: {
      RATE_LIMIT_PER_SECOND: '20',
      RATE_LIMIT_BURST: '20',
      RATE_LIMIT_MERCHANT_PER_SECOND: '2000',
      RATE_LIMIT_MERCHANT_BURST: '2000',
    },
  });
  receiver = await startTestReceiver();
  // the cluster allows 20 requests a second per key, so the load spreads over several keys
  keys.push(...(await createClusterMerchant(cluster, 25, receiver.url)).keys);
}, 180_000);

afterAll(() => stopCluster(cluster, receiver));

describe('two web processes and two workers on one database', () => {
  it('never refunds more than a payment across 60 concurrent requests on both processes', async () => {
    const session = await call(0, keys[1], 'POST', '/v1/checkout-sessions', sessionBody(`scale-${randomUUID()}`));
    const payment = await call(1, keys[1], 'POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    expect(payment.body.status).toBe('succeeded');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(i, keys[2 + (i % 20)], 'POST', '/v1/refund-requests', { payment_id: payment.body.id, amount: 700 }),
      ),
    );
    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(14); // 14 × 700 = 9 800 ≤ 10 000 < 15 × 700
    for (const res of answers.filter((r) => r.status !== 201))
      expect(res.body.error.code).toBe('refund_exceeds_available');
    const [row] = await query<{ amount: number; amount_reserved: number; active: string }>(
      cluster.databaseUrl,
      `SELECT p.amount, p.amount_reserved, (SELECT COALESCE(SUM(amount), 0) FROM refund_requests r WHERE r.payment_id = p.id AND r.status IN ('requested', 'processing', 'completed'))::text AS active FROM payments p WHERE p.id = $1`,
      [payment.body.id],
    );
    expect(row.amount_reserved).toBe(9800);
    expect(Number(row.active)).toBe(9800);
    // Home's figures (payment_figures, kept by triggers) take in each of those refunds as the two workers
    // complete them side by side: in the end all 14, matching the completed refunds in one snapshot
    const figures = async () => {
      const [row] = await query<{ figured: string; completed: string; of_payment: string }>(
        cluster.databaseUrl,
        `SELECT (SELECT sum(refunded) FROM payment_figures f WHERE f.merchant_id = p.merchant_id)::text AS figured,
                (SELECT sum(amount) FROM refund_requests r WHERE r.merchant_id = p.merchant_id
                   AND r.status = 'completed')::text AS completed,
                (SELECT sum(amount) FROM refund_requests r WHERE r.payment_id = p.id
                   AND r.status = 'completed')::text AS of_payment
         FROM payments p WHERE p.id = $1`,
        [payment.body.id],
      );
      return row;
    };
    await expect.poll(async () => (await figures()).of_payment, { timeout: 30_000 }).toBe('9800');
    const settled = await figures();
    expect(settled.figured).toBe(settled.completed);
  });

  it('creates one resource for one Idempotency-Key sent to both processes at once', async () => {
    for (let round = 0; round < 8; round++) {
      const body = sessionBody(`idem-${randomUUID()}`);
      const key = `both-${randomUUID()}`;
      const answers = await Promise.all(
        [0, 1, 0, 1].map((web, i) =>
          call(web, keys[(round % 20) + (i % 2)], 'POST', '/v1/checkout-sessions', body, key),
        ),
      );
      const ok = answers.filter((res) => res.status === 200 || res.status === 201);
      expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
      expect(new Set(ok.map((res) => res.body.id)).size).toBe(1);
      for (const res of answers.filter((r) => r.status >= 300))
        expect(res.body.error.code).toBe('idempotency_key_in_use');
      const rows = await query(cluster.databaseUrl, 'SELECT id FROM checkout_sessions WHERE order_reference = $1', [
        body.order_reference,
      ]);
      expect(rows).toHaveLength(1);
    }
  });

  it("holds one key's rate limit across both processes", async () => {
    const key = keys[24];
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i, key, 'GET', '/v1/payments?limit=1')),
    );
    const seconds = Math.ceil((Date.now() - started) / 1000) + 1;
    const allowed = answers.filter((res) => res.status === 200).length;
    const limited = answers.filter((res) => res.status === 429);
    // one shared budget of 20 a second; two separate budgets would let twice as many through
    expect(allowed).toBeLessThanOrEqual(20 * seconds);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get('ratelimit-limit')).toBe('20');
    expect(limited[0].headers.get('ratelimit-remaining')).toBe('0');
    const first = answers.find((res) => res.status === 200)!;
    expect(first.headers.get('ratelimit-limit')).toBe('20');
  });

  it('delivers every event exactly once per endpoint, with no attempt sent twice', async () => {
    const expected = await waitForAllDeliveries(cluster.databaseUrl);
    const ids = receiver.received.map((webhook) => webhook.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected));
  }, 120_000);
});
