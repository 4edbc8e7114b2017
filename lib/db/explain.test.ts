import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteApiRequestLogsBefore, findApiRequestLogs } from '@/lib/api-logs/repository';
import { countAndFindSessions, findSessionCursor, findSessionsPage } from '@/lib/checkout-sessions/repository';
import {
  expireDueSessions,
  findSessionForPayment,
  findSessionWithItemsAndPayments,
} from '@/lib/checkout-sessions/repository';
import { getOverview, getSetupProgress } from '@/lib/dashboard/overview';
import { db, type Db } from '@/lib/db';
import { COUNT_LIMIT } from '@/lib/db/page';
import {
  countAndFindEvents,
  deleteEventsBefore,
  findEventCursor,
  findEventsAboutObject,
  findEventsAboutObjects,
  findEventSeqSince,
  findEventsPage,
  findLatestEventSeq,
  findRecentEvents,
  findStreamEvents,
} from '@/lib/events/repository';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { createMerchant } from '@/lib/merchants/service';
import { countAndFindPaymentLinks, findPaymentLinksPage, sumSalesOfPaymentLinks } from '@/lib/payment-links/repository';
import {
  countAndFindPaymentsOfLink,
  findOtherAttempts,
  findPayment,
  findPaymentCursor,
  findPaymentsPage,
  findPaymentWithSessionAndRefunds,
  searchPaymentRows,
  type PaymentSearch,
} from '@/lib/payments/repository';
import {
  claimDueRefunds,
  countRefundsByStatus,
  findRefundRequestsPage,
  hasRefundsIn,
  searchRefundRows,
} from '@/lib/refunds/repository';
import {
  claimDueDeliveries,
  claimDueDuplicates,
  claimEndpointDueDeliveries,
  countAndFindEndpointDeliveries,
  countRecentDeliveriesByStatus,
  deleteTestDeliveriesBefore,
  deleteWebhookAttemptsBefore,
  findEventDeliveries,
} from '@/lib/webhooks/repository';
import { seededIds, seedPayments } from '@/scripts/bench-seed';
import { contextOf } from '@/test/context';

// No list, lookup or filter reads a merchant's whole table (docs/performance.md). Each case below runs
// the repositories' own queries on a client that logs them, then asks PostgreSQL for the plan of each one
// over 20 000 payments of one merchant (and their sessions, orders, refunds, events, deliveries and logs),
// analysed so the planner chooses as it would with real data: a Seq Scan of one of these tables, or an
// index scan that reads far more rows than it keeps, fails.

const MERCHANT_SIZED = [
  'payments',
  'checkout_sessions',
  'checkout_items',
  'orders',
  'refund_requests',
  'events',
  'payment_links',
  'webhook_deliveries',
  'webhook_attempts',
  'api_request_logs',
];
const COUNT = 20_000;
const TAG = 'X1';
const DAY = 86_400_000;
// a capped count reads up to 1 050 matches (lib/db/page.ts), and a page of a rare filter walks an index past
// the rows its filter drops (a 4xx request log in 50: 2 550 for a page of 51); a scan of Busy Shop's table
// reads all 20 000 of its rows
const READ_LIMIT = 3_000;

let url: string;
let admin: pg.Client;
let logged: Array<{ query: string; params: string }> = [];
let logging: PrismaClient<'query'>;
let merchantId: string;
let otherMerchantId: string;
/** Refunding Shop: 10 000 refund requests, enough that reading them all shows */
let refundingMerchantId: string;
let tableRows: Map<string, number>;

beforeAll(async () => {
  url = process.env.DATABASE_URL!;
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // two other merchants first (rows of a merchant come in blocks here, and Busy Shop's are the newest): one
  // small, one that refunds half its payments, so that refund_requests is large while Busy Shop's share is not
  const other = (await createMerchant(await db(), { name: 'Other Shop' })).id;
  otherMerchantId = other;
  await seedPayments(admin, { merchantId: other, count: 2_000, tag: 'Y1', logEvery: 1 });
  const refunding = (await createMerchant(await db(), { name: 'Refunding Shop' })).id;
  refundingMerchantId = refunding;
  await seedPayments(admin, { merchantId: refunding, count: 20_000, tag: 'Z1', logEvery: 20, refundEvery: 2 });
  merchantId = (await createMerchant(await db(), { name: 'Busy Shop', hosts: ['shop.example.com'] })).id;
  await seedPayments(admin, { merchantId, count: COUNT, tag: TAG, logEvery: 1, links: 12_000 });
  await admin.query('VACUUM ANALYZE');
  const { rows } = await admin.query<{ relname: string; reltuples: number }>(
    'SELECT relname, reltuples FROM pg_class WHERE relname = ANY($1)',
    [MERCHANT_SIZED],
  );
  tableRows = new Map(rows.map((row) => [row.relname, row.reltuples]));
  logging = new PrismaClient({
    adapter: new PrismaPg({ connectionString: url }),
    log: [{ emit: 'event', level: 'query' }] as const,
  });
  logging.$on('query', (event) => logged.push({ query: event.query, params: event.params }));
}, 120_000);

afterAll(async () => {
  await logging?.$disconnect();
  await admin?.end();
});

/** What `run` sends: the statements PostgreSQL plans (not BEGIN or COMMIT), with their parameters. */
async function statementsOf(run: (database: Db) => Promise<unknown>) {
  logged = [];
  await run(logging);
  const statements = logged.filter((entry) => /^\s*(SELECT|WITH|UPDATE|DELETE)\b/i.test(entry.query));
  expect(statements.length).toBeGreaterThan(0);
  return statements;
}

/**
 * The scans of merchant-sized tables that read more rows than a page and a capped count need: a Seq Scan
 * of a table of more than READ_LIMIT rows, and any scan that reads (returns or filters out) more than
 * READ_LIMIT rows each time it runs. Run and rolled back.
 */
async function scansIn(statements: Array<{ query: string; params: string }>): Promise<string[]> {
  const found: string[] = [];
  for (const { query, params } of statements) {
    await admin.query('SAVEPOINT explain');
    const { rows } = await admin.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
      JSON.parse(params) as unknown[],
    );
    await admin.query('ROLLBACK TO SAVEPOINT explain');
    for (const node of walk(rows[0]['QUERY PLAN'][0].Plan)) {
      const table = node['Relation Name'];
      if (!table || !MERCHANT_SIZED.includes(table)) continue;
      // per loop: EXPLAIN ANALYZE gives both as averages over the loops
      const read = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0);
      const wholeTable = node['Node Type'] === 'Seq Scan' && tableRows.get(table)! > READ_LIMIT;
      if (wholeTable || read > READ_LIMIT) {
        found.push(`${node['Node Type']} of ${table} reading ${read} rows in: ${query.slice(0, 400)}`);
      }
    }
  }
  return found;
}

async function scansOf(run: (database: Db) => Promise<unknown>): Promise<string[]> {
  const statements = await statementsOf(run);
  await admin.query('BEGIN');
  try {
    return await scansIn(statements);
  } finally {
    await admin.query('ROLLBACK');
  }
}

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

const seeded = (n: number) => seededIds(TAG, n);
const page = { skip: 50, take: 25 };
const search = (filters: Partial<PaymentSearch>): PaymentSearch => ({ ...page, ...filters });
const beforeEveryRow = new Date(Date.now() - 400 * DAY);
const lastWeek = () => ({ gte: new Date(Date.now() - 7 * DAY), lt: new Date() });
// the metadata of scripts/bench-seed.ts: a row's own order_id, and the pair every row has
const orderIdOf = (n: number) => JSON.stringify({ order_id: seeded(n).reference });
const WEB = JSON.stringify({ channel: 'web' });
// a refund of Refunding Shop's (seed Z1), by its payment's order
const refundOf21 = { metadata: JSON.stringify({ order_id: seededIds('Z1', 21).reference }) };
const cursorAt = (n: number) => ({ id: seeded(n).payment, createdAt: new Date(Date.now() - (n / COUNT) * 365 * DAY) });

const cases: Array<[string, (database: Db) => Promise<unknown>]> = [
  // /v1/payments
  ['a payment by id', (d) => findPayment(d, merchantId, seeded(7).payment)],
  ['a payment cursor', (d) => findPaymentCursor(d, merchantId, seeded(7).payment)],
  ['the payments list', (d) => findPaymentsPage(d, merchantId, {}, { take: 101 })],
  ['its next page', (d) => findPaymentsPage(d, merchantId, {}, { after: cursorAt(500), take: 101 })],
  [
    'payments by order reference',
    (d) => findPaymentsPage(d, merchantId, { orderReference: seeded(77).reference }, { take: 11 }),
  ],
  ['payments by status', (d) => findPaymentsPage(d, merchantId, { status: 'failed' }, { take: 11 })],
  [
    'failed payments, next page',
    (d) => findPaymentsPage(d, merchantId, { status: 'failed' }, { after: cursorAt(900), take: 11 }),
  ],
  [
    'payments of a session',
    (d) => findPaymentsPage(d, merchantId, { checkoutSessionId: seeded(77).session }, { take: 11 }),
  ],
  // one metadata pair: a row's own (through the GIN index), and every row's (the newest first, as unfiltered)
  ['payments by metadata', (d) => findPaymentsPage(d, merchantId, { metadata: orderIdOf(77) }, { take: 11 })],
  ['payments by common metadata', (d) => findPaymentsPage(d, merchantId, { metadata: WEB }, { take: 11 })],
  [
    'failed payments by metadata, next page',
    (d) =>
      findPaymentsPage(d, merchantId, { status: 'failed', metadata: orderIdOf(80) }, { after: cursorAt(9), take: 11 }),
  ],
  // the dashboard's payments
  ['the dashboard payments list', (d) => searchPaymentRows(d, merchantId, search({}))],
  ...(['succeeded', 'partially_refunded', 'refunded', 'requires_capture', 'canceled', 'failed'] as const).map(
    (status): [string, (database: Db) => Promise<unknown>] => [
      `dashboard payments ${status}`,
      (d) => searchPaymentRows(d, merchantId, search({ status })),
    ],
  ),
  ['dashboard payments by method', (d) => searchPaymentRows(d, merchantId, search({ method: 'interac' }))],
  ['dashboard payments by currency', (d) => searchPaymentRows(d, merchantId, search({ currency: 'CAD' }))],
  ['dashboard payments by dates', (d) => searchPaymentRows(d, merchantId, search({ createdAt: lastWeek() }))],
  [
    'dashboard payments, every filter',
    (d) =>
      searchPaymentRows(
        d,
        merchantId,
        search({ status: 'succeeded', method: 'card', currency: 'USD', createdAt: lastWeek() }),
      ),
  ],
  ['dashboard search by payment id', (d) => searchPaymentRows(d, merchantId, search({ q: seeded(5).payment }))],
  ['dashboard search by session id', (d) => searchPaymentRows(d, merchantId, search({ q: seeded(5).session }))],
  ['dashboard search by reference', (d) => searchPaymentRows(d, merchantId, search({ q: seeded(1234).reference }))],
  ['dashboard search by part of a reference', (d) => searchPaymentRows(d, merchantId, search({ q: `${TAG}-1234` }))],
  [
    'a payment with its session and refunds',
    (d) => findPaymentWithSessionAndRefunds(d, merchantId, seeded(21).payment),
  ],
  ['the other attempts of a session', (d) => findOtherAttempts(d, merchantId, seeded(21).session, seeded(21).payment)],
  ['a session about to be paid, on the hosted page', (d) => findSessionForPayment(d, null, seeded(21).session)],
  ['Home', (d) => getOverview(contextOf(d, merchantId), { timeZone: 'America/Toronto' })],
  ['Home, getting started', (d) => getSetupProgress(contextOf(d, merchantId))],
  // checkout sessions
  ['a session cursor', (d) => findSessionCursor(d, merchantId, seeded(9).session)],
  ['the sessions list', (d) => findSessionsPage(d, merchantId, { at: new Date() }, { take: 11 })],
  [
    'sessions by order reference',
    (d) => findSessionsPage(d, merchantId, { orderReference: seeded(9).reference, at: new Date() }, { take: 11 }),
  ],
  ...(['open', 'complete', 'expired'] as const).map((status): [string, (database: Db) => Promise<unknown>] => [
    `sessions ${status}`,
    (d) => findSessionsPage(d, merchantId, { status, at: new Date() }, { take: 11 }),
  ]),
  [
    'sessions by metadata',
    (d) => findSessionsPage(d, merchantId, { metadata: orderIdOf(9), at: new Date() }, { take: 11 }),
  ],
  [
    'expired sessions by common metadata',
    (d) => findSessionsPage(d, merchantId, { status: 'expired', metadata: WEB, at: new Date() }, { take: 11 }),
  ],
  ['the dashboard sessions list', (d) => countAndFindSessions(d, merchantId, { at: new Date() }, page)],
  [
    'dashboard sessions expired',
    (d) => countAndFindSessions(d, merchantId, { status: 'expired', at: new Date() }, page),
  ],
  [
    'dashboard sessions by id',
    (d) => countAndFindSessions(d, merchantId, { q: seeded(9).session, at: new Date() }, page),
  ],
  [
    'dashboard sessions by part of a reference',
    (d) => countAndFindSessions(d, merchantId, { q: `${TAG}-1234`, at: new Date() }, page),
  ],
  ['a session with items and payments', (d) => findSessionWithItemsAndPayments(d, merchantId, seeded(9).session)],
  // refunds
  ['the refunds list', (d) => findRefundRequestsPage(d, merchantId, {}, { take: 11 })],
  [
    'refunds of a payment',
    (d) => findRefundRequestsPage(d, merchantId, { paymentId: seeded(21).payment }, { take: 11 }),
  ],
  ['refunds by status', (d) => findRefundRequestsPage(d, merchantId, { status: 'failed' }, { take: 11 })],
  ['refunds by metadata', (d) => findRefundRequestsPage(d, refundingMerchantId, refundOf21, { take: 11 })],
  [
    'refunds by common metadata',
    (d) => findRefundRequestsPage(d, refundingMerchantId, { metadata: WEB }, { take: 11 }),
  ],
  ['the dashboard refunds list', (d) => searchRefundRows(d, merchantId, { status: 'completed', ...page })],
  ['refunds per status', (d) => countRefundsByStatus(d, merchantId, COUNT_LIMIT)],
  ['whether any refund waits', (d) => hasRefundsIn(d, merchantId, ['requested'])],
  ['the refund queue', (d) => claimDueRefunds(d, 1000, 10)],
  // events and webhooks
  ['the events list', (d) => findEventsPage(d, merchantId, { type: 'refund.created' }, { where: {}, take: 11 })],
  ['an event cursor', (d) => findEventCursor(d, merchantId, `evt_${TAG}${'5'.padStart(22, '0')}`)],
  ['the dashboard events list', (d) => countAndFindEvents(d, merchantId, { type: 'payment.succeeded' }, page)],
  ['recent activity', (d) => findRecentEvents(d, merchantId, 8)],
  // the event stream (lib/events/stream.ts)
  ['where a stream starts', (d) => findLatestEventSeq(d, merchantId)],
  [
    'where a resumed stream starts',
    (d) => findEventSeqSince(d, merchantId, `evt_${TAG}${'5'.padStart(22, '0')}`, new Date(Date.now() - DAY)),
  ],
  [
    'a stream read',
    (d) =>
      findStreamEvents(d, merchantId, {
        afterSeq: 1000n,
        ids: [`evt_${TAG}${'5'.padStart(22, '0')}`],
        types: ['payment.failed'],
        limit: 100,
      }),
  ],
  ['the events of an object', (d) => findEventsAboutObject(d, merchantId, seeded(30).payment)],
  [
    'the events of several objects',
    (d) => findEventsAboutObjects(d, merchantId, [seeded(30).payment, seeded(30).session]),
  ],
  ['an endpoint deliveries', (d) => countAndFindEndpointDeliveries(d, `we_${TAG}${'1'.padStart(22, '0')}`, page)],
  ['an event deliveries', (d) => findEventDeliveries(d, merchantId, `evt_${TAG}${'5'.padStart(22, '0')}`)],
  [
    'recent deliveries per status',
    (d) => countRecentDeliveriesByStatus(d, [`we_${TAG}${'1'.padStart(22, '0')}`], new Date(Date.now() - DAY)),
  ],
  ['the delivery queue', (d) => claimDueDeliveries(d, 10, 30)],
  [
    "the rest of a shuffled endpoint's batch",
    (d) => claimEndpointDueDeliveries(d, `we_${TAG}${'1'.padStart(22, '0')}`, 10, 30, 600),
  ],
  ['the duplicate queue', (d) => claimDueDuplicates(d, 10)],
  ['the session sweep', (d) => expireDueSessions(d, 100)],
  // payment links
  ['the payment links list', (d) => findPaymentLinksPage(d, merchantId, {}, { where: {}, take: 11 })],
  ['the dashboard payment links', (d) => countAndFindPaymentLinks(d, merchantId, { skip: 0, take: 25 })],
  ['a payment link sales', (d) => sumSalesOfPaymentLinks(d, merchantId, [`pl_${TAG}${'1'.padStart(22, '0')}`])],
  [
    'a payment link payments',
    (d) => countAndFindPaymentsOfLink(d, merchantId, `pl_${TAG}${'1'.padStart(22, '0')}`, page),
  ],
  // the worker's purge (lib/jobs/retention.ts), with a cutoff before every seeded row: planned, deleting nothing
  ['the request logs purge', (d) => deleteApiRequestLogsBefore(d, beforeEveryRow, 5_000)],
  ['the events purge', (d) => deleteEventsBefore(d, beforeEveryRow, 5_000)],
  ['the webhook attempts purge', (d) => deleteWebhookAttemptsBefore(d, beforeEveryRow, 5_000)],
  ['the test sends purge', (d) => deleteTestDeliveriesBefore(d, beforeEveryRow, 5_000)],
  // Developers → Logs
  ['the request logs', (d) => findApiRequestLogs(d, merchantId, { limit: 51 })],
  [
    'the request logs filtered',
    (d) => findApiRequestLogs(d, merchantId, { limit: 51, filters: { status: { hundreds: 4 }, method: 'GET' } }),
  ],
];

describe('no list, lookup or filter scans a merchant-sized table', () => {
  it.each(cases)('%s', async (_label, run) => {
    expect(await scansOf(run)).toEqual([]);
  });

  it("reads only an advanced clock's merchant's rows in the worker's queues", async () => {
    // Busy Shop's 20 000 deliveries wait for a retry in two days and 5 000 of its sessions are open for a day:
    // due for no one now. Other Shop's clock is a year ahead; a scan bounded by the latest clock of all read them all.
    const queues = async (d: Db) => {
      await expireDueSessions(d, 100);
      await claimDueRefunds(d, 1000, 10);
      await claimDueDeliveries(d, 10, 30);
      await claimDueDuplicates(d, 10);
    };
    const deliveries = `"endpoint_id" IN (SELECT "id" FROM "webhook_endpoints" WHERE "merchant_id" = $1)`;
    await admin.query(
      `UPDATE "webhook_deliveries" SET "status" = 'pending', "next_attempt_at" = now() + interval '2 days',
         "duplicate_due_at" = now() + interval '2 days' WHERE ${deliveries}`,
      [merchantId],
    );
    await admin.query(
      `INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "currency", "amount",
         "shipping_amount", "tax_amount", "payment_methods", "return_url", "expires_at")
       SELECT 'cs_open' || lpad(g::text, 17, '0'), s."merchant_id", s."order_id", s."order_reference", s."currency",
              s."amount", 0, 0, s."payment_methods", s."return_url", now() + interval '1 day'
       FROM (SELECT * FROM "checkout_sessions" WHERE "merchant_id" = $1 LIMIT 1) AS s, generate_series(1, 5000) AS g`,
      [merchantId],
    );
    await admin.query(`UPDATE "merchants" SET "clock_offset_seconds" = 31536000 WHERE "id" = $1`, [otherMerchantId]);
    await admin.query('ANALYZE');
    try {
      expect(await scansOf(queues)).toEqual([]);
    } finally {
      await admin.query(`UPDATE "merchants" SET "clock_offset_seconds" = 0 WHERE "id" = $1`, [otherMerchantId]);
      await admin.query(`DELETE FROM "checkout_sessions" WHERE "id" LIKE 'cs\\_open%'`);
      await admin.query(
        `UPDATE "webhook_deliveries" SET "status" = 'succeeded', "next_attempt_at" = NULL, "duplicate_due_at" = NULL
         WHERE ${deliveries}`,
        [merchantId],
      );
    }
  });

  it('would notice a missing index', async () => {
    const statements = await statementsOf((d) =>
      findPaymentsPage(d, merchantId, { orderReference: seeded(77).reference }, { take: 11 }),
    );
    await admin.query('BEGIN');
    try {
      expect(await scansIn(statements)).toEqual([]);
      await admin.query('DROP INDEX "payments_merchant_id_order_reference_created_at_id_idx"');
      await admin.query('DROP INDEX "payments_order_reference_idx"');
      expect(await scansIn(statements)).not.toEqual([]);
    } finally {
      await admin.query('ROLLBACK');
    }
  });

  it.each([
    ['payments', (d: Db) => findPaymentsPage(d, merchantId, { metadata: orderIdOf(77) }, { take: 11 })],
    [
      'checkout_sessions',
      (d: Db) => findSessionsPage(d, merchantId, { metadata: orderIdOf(77), at: new Date() }, { take: 11 }),
    ],
    ['refund_requests', (d: Db) => findRefundRequestsPage(d, refundingMerchantId, refundOf21, { take: 11 })],
  ])('would notice the missing metadata index of %s', async (table, run) => {
    const statements = await statementsOf(run);
    await admin.query('BEGIN');
    try {
      expect(await scansIn(statements)).toEqual([]);
      await admin.query(`DROP INDEX "${table}_metadata_idx"`);
      expect(await scansIn(statements)).not.toEqual([]);
    } finally {
      await admin.query('ROLLBACK');
    }
  });
});
