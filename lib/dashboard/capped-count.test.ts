import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { COUNT_LIMIT } from '@/lib/db/page';
import { createMerchant } from '@/lib/merchants/service';
import { seededIds, seedPayments } from '@/scripts/bench-seed';
import { searchCheckoutSessions } from '@/lib/checkout-sessions/dashboard';
import { searchPayments } from '@/lib/payments/dashboard';
import { searchRefunds } from '@/lib/refunds/dashboard';
import { contextOf } from '@/test/context';

// The dashboard's lists count their matches only up to COUNT_LIMIT past the page's first row (lib/db/page.ts):
// exact below it, the limit itself at it (the page then says "1000+"), and further on deeper pages. Search
// finds an id by its key and a reference by part of it.

const COUNT = COUNT_LIMIT + 200;
let merchantId: string;

beforeAll(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Counted Shop' })).id;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await seedPayments(client, { merchantId, count: COUNT, tag: 'C1', refundEvery: 2 });
  await client.end();
});

describe('capped counts', () => {
  it('stop at the limit past the page, and are exact below it', async () => {
    expect((await searchPayments(contextOf(await db(), merchantId), { page: 1 })).total).toBe(COUNT_LIMIT);
    expect((await searchPayments(contextOf(await db(), merchantId), { page: 3 })).total).toBe(COUNT_LIMIT + 50);
    expect((await searchPayments(contextOf(await db(), merchantId), { status: 'failed', page: 1 })).total).toBe(
      COUNT / 10,
    );
    expect((await searchCheckoutSessions(contextOf(await db(), merchantId), { page: 1 })).total).toBe(COUNT_LIMIT);
  });

  it('count the refund tabs by status, exactly below the limit', async () => {
    const { counts } = await searchRefunds(contextOf(await db(), merchantId), { page: 1 });
    expect(counts).toMatchObject({ completed: COUNT / 2, requested: 0, failed: 0 });
  });
});

describe('search', () => {
  it('finds a payment by its id, its session id, its reference or part of it', async () => {
    const row = seededIds('C1', 123);
    for (const q of [row.payment, row.session, row.reference, 'C1-123']) {
      const { rows } = await searchPayments(contextOf(await db(), merchantId), { q, page: 1 });
      expect(rows.map((payment) => payment.id)).toContain(row.payment);
    }
  });

  it('matches text under three characters to whole references only', async () => {
    expect((await searchPayments(contextOf(await db(), merchantId), { q: '12', page: 1 })).total).toBe(0);
  });
});
