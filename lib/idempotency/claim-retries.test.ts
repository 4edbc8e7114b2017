import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdempotentReplay, isReplay } from './service';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { sql, write } from '@/lib/db/statement';
import { newId } from '@/lib/core/ids';
import { createMerchant } from '@/lib/merchants/service';
import {
  CLAIM_TRIES,
  type ClaimWithAnswer,
  findIdempotencyRecord,
  runWriteClaimingKey,
  withKeyClaim,
} from './repository';
import { contextOf } from '@/test/context';

// The branches where a write that claims its key runs again (runWriteClaimingKey), each made to happen by a
// second connection that holds a row in an open transaction until the write waits on it.

const ENDPOINT = 'POST /v1/checkout-sessions';
const input = (order_reference: string) => ({
  order_reference,
  currency: 'USD' as const,
  items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
  shipping_amount: 0,
  tax_amount: 0,
  amount: 1200,
  return_url: 'https://shop.example.com/thanks',
});

let merchantId: string;
let holder: pg.Client;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Retry Shop', hosts: ['shop.example.com'] })).id;
  holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
});
afterEach(() => holder.end());

const claimKey =
  (key: string) =>
  (session: unknown): ClaimWithAnswer => ({
    merchantId,
    endpoint: ENDPOINT,
    key,
    fingerprint: 'same-body',
    status: 201,
    body: session,
  });

/** Resolves once some statement of this database waits on a lock (the holder's row). */
async function someStatementWaits(): Promise<void> {
  const database = await db();
  for (let tries = 0; tries < 200; tries += 1) {
    const [row] = await database.$queryRawUnsafe<{ waiting: bigint }[]>(
      `SELECT count(*) AS "waiting" FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (row.waiting > 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no statement came to wait on the held row');
}

describe('a write claiming its key runs again', () => {
  it('when the record holding the key was committed after its snapshot: it then replays that answer', async () => {
    await holder.query('BEGIN');
    await holder.query(
      `INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
       VALUES ($1, $2, 'held-key', 'same-body', 201, '{"held":true}')`,
      [merchantId, ENDPOINT],
    );
    const replayed = createCheckoutSession(contextOf(await db(), merchantId), input('held-1'), {
      claimKey: claimKey('held-key'),
    });
    await someStatementWaits();
    await holder.query('COMMIT');
    const outcome = await replayed;
    expect(outcome).toEqual(new IdempotentReplay(201, { held: true }));
    expect(await (await db()).checkoutSession.count({ where: { merchantId } })).toBe(0);
  });

  it('when the order its answer names was made by another after its snapshot (order_changed)', async () => {
    const heldOrder = newId('order');
    await holder.query('BEGIN');
    await holder.query(`INSERT INTO "orders" ("id", "merchant_id", "reference") VALUES ($1, $2, 'held-2')`, [
      heldOrder,
      merchantId,
    ]);
    const created = createCheckoutSession(contextOf(await db(), merchantId), input('held-2'), {
      claimKey: (made) => claimKey('key-2')(serializeCheckoutSession(made, new Date())),
    });
    await someStatementWaits();
    await holder.query('COMMIT');
    const session = await created;
    if (isReplay(session)) throw new Error('the write replayed, rather than running again');
    expect(session.orderId).toBe(heldOrder);
    const record = await findIdempotencyRecord(await db(), { merchantId, endpoint: ENDPOINT, key: 'key-2' });
    expect(JSON.parse(record!.responseBody!)).toMatchObject({ id: session.id, order_id: heldOrder });
  });

  it(`at most ${CLAIM_TRIES} times, then fails, its key left free`, async () => {
    const neverSettles = withKeyClaim(write({ name: 'never-settles', writes: [] }), {
      retryWhen: [{ reason: 'run_again', when: sql`true` }],
    });
    const claim = { ...claimKey('key-3')({ never: true }) };
    await expect(runWriteClaimingKey(await db(), neverSettles, {}, claim)).rejects.toThrow(
      `never-settles-claiming-key did not settle its Idempotency-Key in ${CLAIM_TRIES} runs`,
    );
    expect(await findIdempotencyRecord(await db(), { merchantId, endpoint: ENDPOINT, key: 'key-3' })).toBeNull();
  });
});
