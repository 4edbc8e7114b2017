import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_SECONDS } from '@/lib/webhooks/deliver';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import {
  createClusterMerchant,
  killHard,
  query,
  startCluster,
  stopCluster,
  waitForAllDeliveries,
  type Cluster,
} from './cluster';

// kill -9 a web process and a worker in the middle of load, start new ones, and check that nothing a
// client was told about is lost, no refund total passes its payment, nothing was created without its
// idempotency record, and every committed event is still delivered.

let cluster: Cluster;
let receiver: TestReceiver;
const keys: string[] = [];

type Acknowledged = { sessions: string[]; payments: string[]; refunds: string[] };

beforeAll(async () => {
  cluster = await startCluster({ webs: 2, workers: 2 });
  receiver = await startTestReceiver();
  keys.push(...(await createClusterMerchant(cluster, 6, receiver.url)).keys);
}, 180_000);

afterAll(() => stopCluster(cluster, receiver));

/**
 * A client as merchants write them: a request that gets no answer (the process died) is sent again with
 * the same Idempotency-Key, to whichever web process is up.
 */
async function send(
  key: string,
  path: string,
  body: unknown,
  idempotencyKey: string,
  attempt = 0,
): Promise<{ status: number; body: any } | null> {
  const alive = cluster.webs.filter((web) => web.child.exitCode === null && web.child.signalCode === null);
  const web = alive[(attempt + Math.floor(Math.random() * alive.length)) % alive.length];
  try {
    const response = await fetch(`${web.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': idempotencyKey,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const json = await response.json();
    if (response.status === 409 && json.error?.code === 'idempotency_key_in_use' && attempt < 40) {
      // the first try is still running somewhere, or died holding the key: wait and send it again
      await new Promise((resolve) => setTimeout(resolve, 250));
      return send(key, path, body, idempotencyKey, attempt + 1);
    }
    return { status: response.status, body: json };
  } catch {
    if (attempt >= 40) return null;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return send(key, path, body, idempotencyKey, attempt + 1);
  }
}

async function customer(key: string, keepGoing: () => boolean, acknowledged: Acknowledged): Promise<void> {
  while (keepGoing()) {
    const amount = 1000 + Math.floor(Math.random() * 9000);
    const session = await send(
      key,
      '/v1/checkout-sessions',
      {
        order_reference: `crash-${randomUUID()}`,
        currency: 'USD',
        items: [{ name: 'Thing', quantity: 1, unit_amount: amount }],
        amount,
        return_url: 'https://shop.example.com/thanks',
      },
      randomUUID(),
    );
    if (!session || session.status >= 300) continue;
    acknowledged.sessions.push(session.body.id);
    const payment = await send(
      key,
      `/v1/test-helpers/checkout-sessions/${session.body.id}/pay`,
      { payment_method: 'card', card_number: '4242424242424242' },
      randomUUID(),
    );
    if (!payment || payment.status >= 300) continue;
    acknowledged.payments.push(payment.body.id);
    for (let i = 0; i < 4; i++) {
      const refund = await send(
        key,
        '/v1/refund-requests',
        { payment_id: payment.body.id, amount: Math.ceil(amount * 0.3) },
        randomUUID(),
      );
      if (refund && refund.status === 201) acknowledged.refunds.push(refund.body.id);
    }
  }
}

describe('crash safety', () => {
  it('loses nothing acknowledged when a web process and a worker are killed mid-load', async () => {
    const acknowledged: Acknowledged = { sessions: [], payments: [], refunds: [] };
    // at least 12 s of load, and enough paid orders to mean something even on a slow machine
    const started = Date.now();
    const keepGoing = () =>
      Date.now() - started < 12_000 || (acknowledged.payments.length < 6 && Date.now() - started < 60_000);
    const load = Promise.all(keys.map((key) => customer(key, keepGoing, acknowledged)));

    await new Promise((resolve) => setTimeout(resolve, 4000));
    await Promise.all([killHard(cluster.webs[0].child), killHard(cluster.workers[0])]);
    cluster.startWorker();
    await cluster.startWeb();
    await load;

    expect(acknowledged.payments.length).toBeGreaterThan(5);
    const url = cluster.databaseUrl;
    const ids = async (table: string, list: string[]) =>
      (await query<{ id: string }>(url, `SELECT id FROM ${table} WHERE id = ANY($1)`, [list]))
        .map((row) => row.id)
        .sort();
    expect(await ids('checkout_sessions', acknowledged.sessions)).toEqual([...acknowledged.sessions].sort());
    expect(await ids('payments', acknowledged.payments)).toEqual([...acknowledged.payments].sort());
    expect(await ids('refund_requests', acknowledged.refunds)).toEqual([...acknowledged.refunds].sort());

    // no refund total past its payment, and the reservation is exactly the sum of active refunds
    const payments = await query<{
      id: string;
      amount: number;
      amount_reserved: number;
      amount_refunded: number;
      active: string;
      completed: string;
    }>(
      url,
      `SELECT p.id, p.amount, p.amount_reserved, p.amount_refunded,
              COALESCE(SUM(r.amount) FILTER (WHERE r.status IN ('requested', 'processing', 'completed')), 0)::text AS active,
              COALESCE(SUM(r.amount) FILTER (WHERE r.status = 'completed'), 0)::text AS completed
       FROM payments p LEFT JOIN refund_requests r ON r.payment_id = p.id GROUP BY p.id`,
    );
    for (const payment of payments) {
      expect(Number(payment.active), payment.id).toBeLessThanOrEqual(payment.amount);
      expect(payment.amount_reserved, payment.id).toBe(Number(payment.active));
    }

    // everything the API created carries the record that answers its replays
    for (const [table, endpoint] of [
      ['checkout_sessions', "endpoint = 'POST /v1/checkout-sessions'"],
      ['payments', "endpoint LIKE 'POST /v1/test-helpers/checkout-sessions/%/pay'"],
      ['refund_requests', "endpoint = 'POST /v1/refund-requests'"],
    ]) {
      const orphans = await query(
        url,
        `SELECT t.id FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE ${endpoint} AND k.response_body::jsonb->>'id' = t.id)`,
      );
      expect(orphans, table).toEqual([]);
    }

    // one attempt a delivery may be cut short by the kill; every event still arrives, at least once. What the
    // killed worker had claimed stays leased to it until the lease runs out in the merchant's time: the
    // merchant's test clock passes it, as the wall clock would a minute later
    const advanced = await send(keys[0], '/v1/test-helpers/clock/advance', { seconds: LEASE_SECONDS }, randomUUID());
    expect(advanced?.status, JSON.stringify(advanced?.body)).toBe(200);
    const delivered = await waitForAllDeliveries(url);
    const received = new Set(receiver.received.map((webhook) => webhook.headers['webhook-id']));
    for (const eventId of delivered) expect(received.has(eventId), eventId).toBe(true);
    const events = await query<{ count: string }>(url, 'SELECT count(*)::text AS count FROM events');
    expect(delivered.length).toBe(Number(events[0].count));
  }, 240_000);
});
