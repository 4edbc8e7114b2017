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

/** The types of the events about one object, in the order they were made. */
async function eventTypesAbout(objectId: string): Promise<string[]> {
  const rows = await query<{ type: string }>(
    cluster.databaseUrl,
    `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
    [objectId],
  );
  return rows.map((row) => row.type);
}

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
    // one shared budget of 20 a second, which the processes' allowances on credit pass by at most a tenth in
    // a window (lib/rate-limits/shared-budgets.ts); two separate budgets would let twice as many through
    expect(allowed).toBeLessThanOrEqual(22 * seconds);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get('ratelimit-limit')).toBe('20');
    expect(limited[0].headers.get('ratelimit-remaining')).toBe('0');
    const first = answers.find((res) => res.status === 200)!;
    expect(first.headers.get('ratelimit-limit')).toBe('20');
  });

  it('captures an authorization once, and of captures and cancels at once one wins, across both processes', async () => {
    const authorize = async () => {
      const body = { ...sessionBody(`capture-${randomUUID()}`), capture_method: 'manual' };
      const session = await call(0, keys[3], 'POST', '/v1/checkout-sessions', body);
      const payment = await call(1, keys[3], 'POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      });
      expect(payment.body.status).toBe('requires_capture');
      return payment.body.id as string;
    };
    const captures = await authorize();
    const raced = await authorize();
    const [captureAnswers, mixedAnswers] = await Promise.all([
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i, keys[4 + (i % 8)], 'POST', `/v1/payments/${captures}/capture`, { amount_to_capture: 1000 + i }),
        ),
      ),
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i, keys[12 + (i % 8)], 'POST', `/v1/payments/${raced}/${i % 4 < 2 ? 'capture' : 'cancel'}`, {}),
        ),
      ),
    ]);
    for (const [id, answers] of [
      [captures, captureAnswers],
      [raced, mixedAnswers],
    ] as const) {
      const won = answers.filter((res) => res.status === 200);
      expect(won).toHaveLength(1);
      for (const res of answers.filter((one) => one.status !== 200))
        expect(['payment_not_capturable', 'payment_not_cancelable']).toContain(res.body.error.code);
      const [row] = await query<{ status: string; amount_captured: number }>(
        cluster.databaseUrl,
        'SELECT status::text, amount_captured FROM payments WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ status: won[0].body.status, amount_captured: won[0].body.amount_captured });
      expect(await eventTypesAbout(id)).toEqual([
        'payment.authorized',
        row.status === 'succeeded' ? 'payment.succeeded' : 'payment.canceled',
      ]);
    }
  });

  it('of a capture and the expiry sweep at the end of 7 days, one wins, across both processes and workers', async () => {
    // a merchant of its own: its clock moves 7 days
    const own = (await createClusterMerchant(cluster, 2, receiver.url)).keys;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = { ...sessionBody(`lapse-${randomUUID()}`), capture_method: 'manual' };
      const session = await call(i, own[0], 'POST', '/v1/checkout-sessions', body);
      const paid = await call(i + 1, own[0], 'POST', `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      });
      ids.push(paid.body.id);
    }
    // up to the last seconds of the authorizations, then captures on both processes while the workers sweep
    const clock = await call(0, own[0], 'POST', '/v1/test-helpers/clock/advance', { seconds: 7 * 24 * 3600 - 3 });
    expect(clock.status).toBe(200);
    const answers = new Map<string, { status: number; body: any }[]>(ids.map((id) => [id, []]));
    const until = Date.now() + 6_000;
    for (let round = 0; Date.now() < until; round++) {
      const open = ids.filter((id) => !answers.get(id)!.some((res) => res.status === 200));
      await Promise.all(
        open.map(async (id, i) => {
          answers.get(id)!.push(await call(round + i, own[round % 2], 'POST', `/v1/payments/${id}/capture`, {}));
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const rows = await query<{ id: string; status: string; cancellation_reason: string | null }>(
      cluster.databaseUrl,
      'SELECT id, status::text, cancellation_reason FROM payments WHERE id = ANY($1)',
      [ids],
    );
    for (const row of rows) {
      const captured = answers.get(row.id)!.filter((res) => res.status === 200);
      for (const res of answers.get(row.id)!.filter((one) => one.status !== 200))
        expect(res.body.error.code).toBe('payment_not_capturable');
      if (row.status === 'succeeded') expect(captured).toHaveLength(1);
      else {
        expect(row).toMatchObject({ status: 'canceled', cancellation_reason: 'expired' });
        expect(captured).toHaveLength(0);
      }
      expect(await eventTypesAbout(row.id)).toEqual([
        'payment.authorized',
        row.status === 'succeeded' ? 'payment.succeeded' : 'payment.canceled',
      ]);
    }
    expect(rows).toHaveLength(ids.length);
  });

  it('delivers every event exactly once per endpoint, with no attempt sent twice', async () => {
    const expected = await waitForAllDeliveries(cluster.databaseUrl);
    const ids = receiver.received.map((webhook) => webhook.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected));
  }, 120_000);
});
