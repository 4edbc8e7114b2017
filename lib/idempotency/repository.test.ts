import { describe, expect, it } from 'vitest';
import { IdempotentReplay } from './service';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db, inTransaction } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import type { ClaimWithAnswer } from './repository';
import { contextOf } from '@/test/context';

// A replay reads the record that holds its key and writes nothing: no row lock, so no transaction id, and no
// commit record to flush (claimWithAnswer says why the claim does not use ON CONFLICT DO UPDATE).

const input = {
  order_reference: 'order-replay-1',
  currency: 'USD' as const,
  items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
  shipping_amount: 0,
  tax_amount: 0,
  amount: 1200,
  return_url: 'https://shop.example.com/thanks',
};

describe('claiming an Idempotency-Key with the answer', () => {
  it('writes nothing on a replay, which it returns: the transaction that replays has no transaction id', async () => {
    const client = await db();
    const merchantId = (await createMerchant(client, { name: 'Replay Shop', hosts: ['shop.example.com'] })).id;
    const claimKey = (session: unknown): ClaimWithAnswer => ({
      merchantId,
      endpoint: 'POST /v1/checkout-sessions',
      key: 'replay-key',
      fingerprint: 'same-body',
      status: 201,
      body: session,
    });
    await createCheckoutSession(contextOf(client, merchantId), input, { claimKey });

    const { replayed, xid } = await inTransaction(client, async (tx) => {
      const replayed = await createCheckoutSession(contextOf(tx, merchantId), input, { claimKey });
      const [row] = await tx.$queryRaw<{ xid: string | null }[]>`SELECT pg_current_xact_id_if_assigned()::text AS xid`;
      return { replayed, xid: row.xid };
    });
    expect(replayed).toBeInstanceOf(IdempotentReplay);
    expect(xid).toBeNull();
    expect(await client.checkoutSession.count({ where: { merchantId } })).toBe(1);
  });
});
