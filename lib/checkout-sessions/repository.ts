import { z } from 'zod';
import { metadataField, type Metadata } from '@/lib/core/metadata';
import { claimOnEachClock, dueOn, onEachClock } from '@/lib/test-clocks/repository';
import { NEWEST_FIRST, type Cursor } from '@/lib/core/pagination';
import { sql, type Db } from '@/lib/db';
import {
  conditional,
  cte,
  type MaybeGiven,
  params,
  permitted,
  raw,
  run,
  runWrite,
  sql as statementSql,
  write,
} from '@/lib/db/statement';
import { eventParams, eventsWrittenAfter, type EventValues, type NewEvent } from '@/lib/events/repository';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runClaimableChange,
  runWriteClaimingKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';
import type { CaptureMethod, Prisma } from '@/lib/generated/prisma/client';
import {
  CaptureMethod as CaptureMethodValues,
  CheckoutSessionStatus,
  Currency,
  OrderStatus,
  PaymentMethod,
} from '@/lib/generated/prisma/enums';
import type { CheckoutSessionWithItems } from './serialize';
import { countLimit, referenceMatch } from '@/lib/db/page';
import { isId } from '@/lib/core/ids';

// Every query on checkout_sessions and checkout_items. The insert and the read by id are the API's hot
// paths: one prepared statement each, their rows checked where they are read.

export type SessionStatusFilter = 'open' | 'complete' | 'expired';

/** The status the API reports: an open session past expires_at is expired before the sweep writes it. */
export function sessionStatusWhere(
  status: SessionStatusFilter | undefined,
  at: Date,
): Prisma.CheckoutSessionWhereInput {
  if (status === 'open') return { status: 'open', expiresAt: { gt: at } };
  if (status === 'expired') return { OR: [{ status: 'expired' }, { status: 'open', expiresAt: { lte: at } }] };
  if (status === 'complete') return { status: 'complete' };
  return {};
}

export type NewCheckoutSession = {
  orderId: string;
  merchantId: string;
  orderReference: string;
  id: string;
  currency: Currency;
  amount: number;
  shippingAmount: number;
  taxAmount: number;
  paymentMethods: PaymentMethod[];
  returnUrl: string;
  cancelUrl: string | null;
  paymentLinkId: string | null;
  metadata: Metadata;
  customerEmail: string | null;
  captureMethod: CaptureMethod;
  createdAt: Date;
  expiresAt: Date;
  items: { name: string; quantity: number; unitAmount: number }[];
};

const ORDER_ALREADY_PAID = 'order_already_paid';

const orderRow = z.object({ id: z.string(), status: z.enum(OrderStatus) });

/**
 * Finds or creates the order and, unless it is paid already, inserts the session and its items. Returns the
 * order as it is: a paid one means nothing was inserted. `orderId` is used only when the order is new.
 */
export async function insertSessionUnlessOrderPaid(
  database: Db,
  session: NewCheckoutSession,
): Promise<z.infer<typeof orderRow>> {
  const { row } = await runWrite(database, INSERT_SESSION.write, sessionValues(session));
  return orderRow.parse(row);
}

/**
 * The session of an idempotent create and its key's claim, with the answer, in one statement (one round
 * trip). `answer` is the /v1 body but for its order_id, which the statement fills in. Returns the order id when
 * this request claimed the key, else the record that holds it; 'order_already_paid' when nothing was written.
 */
export async function insertSessionClaimingKey(
  database: Db,
  session: NewCheckoutSession,
  claim: ClaimWithAnswer,
): Promise<(ClaimOutcome & { orderId?: string }) | typeof ORDER_ALREADY_PAID> {
  const result = await runWriteClaimingKey(database, INSERT_SESSION, sessionValues(session), claim);
  if ('refused' in result) return result.refused;
  if (!result.outcome.claimed) return result.outcome;
  return { ...result.outcome, orderId: orderRow.parse(result.row).id };
}

type SessionValues = {
  orderId: string;
  merchantId: string;
  orderReference: string;
  sessionId: string;
  currency: Currency;
  amount: number;
  shippingAmount: number;
  taxAmount: number;
  paymentMethods: PaymentMethod[];
  returnUrl: string;
  cancelUrl: string | null;
  paymentLinkId: string | null;
  createdAt: Date;
  expiresAt: Date;
  itemNames: string[];
  itemQuantities: number[];
  itemUnitAmounts: number[];
  metadata: string;
  customerEmail: string | null;
  captureMethod: CaptureMethod;
};

const s = params<SessionValues>({
  orderId: 'text',
  merchantId: 'text',
  orderReference: 'text',
  sessionId: 'text',
  currency: '"Currency"',
  amount: 'int',
  shippingAmount: 'int',
  taxAmount: 'int',
  paymentMethods: '"PaymentMethod"[]',
  returnUrl: 'text',
  cancelUrl: 'text',
  paymentLinkId: 'text',
  createdAt: 'timestamptz',
  expiresAt: 'timestamptz',
  itemNames: 'text[]',
  itemQuantities: 'int[]',
  itemUnitAmounts: 'int[]',
  metadata: 'jsonb',
  customerEmail: 'text',
  captureMethod: '"CaptureMethod"',
});

function sessionValues(session: NewCheckoutSession): SessionValues {
  return {
    orderId: session.orderId,
    merchantId: session.merchantId,
    orderReference: session.orderReference,
    sessionId: session.id,
    currency: session.currency,
    amount: session.amount,
    shippingAmount: session.shippingAmount,
    taxAmount: session.taxAmount,
    paymentMethods: session.paymentMethods,
    returnUrl: session.returnUrl,
    cancelUrl: session.cancelUrl,
    paymentLinkId: session.paymentLinkId,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    itemNames: session.items.map((item) => item.name),
    itemQuantities: session.items.map((item) => item.quantity),
    itemUnitAmounts: session.items.map((item) => item.unitAmount),
    metadata: JSON.stringify(session.metadata),
    customerEmail: session.customerEmail,
    captureMethod: session.captureMethod,
  };
}

// Find or create the order and, unless it is paid already, insert the session and its items, in one statement
// (atomic on its own, and inside the caller's transaction when there is one). Two requests with a new order
// reference at once make one order: the second waits on the unique index and then takes the first's. The
// SQL: repository.sql beside this file.
const upsertedOrder = cte(
  'upserted_order',
  statementSql`
  INSERT INTO "orders" ("id", "merchant_id", "reference")
  SELECT ${s.orderId}, ${s.merchantId}, ${s.orderReference} FROM ${permitted}
  ON CONFLICT ("merchant_id", "reference") DO UPDATE SET "reference" = EXCLUDED."reference"
  RETURNING "id", "status"::text AS "status"`,
);

const newSession = cte(
  'new_session',
  statementSql`
  INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "currency", "amount",
    "shipping_amount", "tax_amount", "payment_methods", "return_url", "cancel_url", "payment_link_id", "created_at",
    "expires_at", "metadata", "customer_email", "capture_method")
  SELECT ${s.sessionId}, ${s.merchantId}, o."id", ${s.orderReference}, ${s.currency}, ${s.amount}, ${s.shippingAmount},
         ${s.taxAmount}, ${s.paymentMethods}, ${s.returnUrl}, ${s.cancelUrl}, ${s.paymentLinkId}, ${s.createdAt},
         ${s.expiresAt}, ${s.metadata}, ${s.customerEmail}, ${s.captureMethod}
  FROM ${upsertedOrder} AS o WHERE o."status" = 'unpaid'
  RETURNING "id"`,
);

const newItems = cte(
  'new_items',
  statementSql`
  INSERT INTO "checkout_items" ("checkout_session_id", "position", "name", "quantity", "unit_amount")
  SELECT s."id", i."ordinality" - 1, i."name", i."quantity", i."unit_amount"
  FROM ${newSession} AS s,
    unnest(${s.itemNames}, ${s.itemQuantities}, ${s.itemUnitAmounts}) WITH ORDINALITY AS i("name", "quantity", "unit_amount", "ordinality")`,
);

// With the key's claim: the answer's order_id is the order that exists in the statement's snapshot, or the new
// one, put in place of the new one's id in the answer's text (kept as text, so a replay is the first answer
// byte for byte); should a concurrent request make the order after that snapshot, the ids differ and the
// statement undoes itself to be run again. A paid order undoes it too: its key stays free.
const answerOrder = cte(
  'answer_order',
  statementSql`
  SELECT coalesce(
    (SELECT "id" FROM "orders" WHERE "merchant_id" = ${s.merchantId} AND "reference" = ${s.orderReference}),
    ${s.orderId}
  ) AS "id"`,
);

const INSERT_SESSION = withKeyClaim(
  write<SessionValues, typeof ORDER_ALREADY_PAID>({
    name: 'insert-checkout-session',
    writes: [upsertedOrder, newSession, newItems],
    result: upsertedOrder,
    refusals: [{ reason: ORDER_ALREADY_PAID, when: statementSql`NOT EXISTS (SELECT 1 FROM ${newSession})` }],
  }),
  {
    answer: (given) =>
      cte(
        'answer',
        statementSql`
        SELECT replace(${given}, to_json(${s.orderId})::text, to_json(a."id")::text) AS "answer"
        FROM ${answerOrder} AS a`,
      ),
    retryWhen: [
      {
        reason: 'order_changed',
        when: statementSql`(SELECT "id" FROM ${upsertedOrder}) <> (SELECT "id" FROM ${answerOrder})`,
      },
    ],
  },
);

// The row SELECT_SESSION_WITH_ITEMS returns, alias by alias: checked, so a column renamed in the schema
// but not in the query fails here rather than showing as undefined in a /v1 body.
const sessionWithItemsRow = z.object({
  id: z.string(),
  merchantId: z.string(),
  orderId: z.string(),
  orderReference: z.string(),
  status: z.enum(CheckoutSessionStatus),
  currency: z.enum(Currency),
  amount: z.number().int(),
  shippingAmount: z.number().int(),
  taxAmount: z.number().int(),
  paymentMethods: z.array(z.enum(PaymentMethod)),
  returnUrl: z.string(),
  cancelUrl: z.string().nullable(),
  paymentId: z.string().nullable(),
  expiresAt: z.date(),
  createdAt: z.date(),
  completedAt: z.date().nullable(),
  expiredAt: z.date().nullable(),
  paymentLinkId: z.string().nullable(),
  metadata: metadataField,
  declinedPayments: z.number().int(),
  customerEmail: z.string().nullable(),
  captureMethod: z.enum(CaptureMethodValues),
  items: z.array(
    z.object({
      checkoutSessionId: z.string(),
      position: z.number().int(),
      name: z.string(),
      quantity: z.number().int(),
      unitAmount: z.number().int(),
    }),
  ),
}) satisfies z.ZodType<CheckoutSessionWithItems>;

/** A session with its items in one prepared statement. `merchantId` null reads any merchant's session. */
export async function findSessionWithItems(
  database: Db,
  merchantId: string | null,
  id: string,
): Promise<CheckoutSessionWithItems | null> {
  const [row] = await sql(database, 'get-checkout-session', SELECT_SESSION_WITH_ITEMS, [id, merchantId]);
  return row ? sessionWithItemsRow.parse(row) : null;
}

const SESSION_WITH_ITEMS_COLUMNS = `
         s."id", s."merchant_id" AS "merchantId", s."order_id" AS "orderId", s."order_reference" AS "orderReference",
         s."status"::text AS "status", s."currency"::text AS "currency", s."amount",
         s."shipping_amount" AS "shippingAmount", s."tax_amount" AS "taxAmount",
         s."payment_methods"::text[] AS "paymentMethods", s."return_url" AS "returnUrl", s."cancel_url" AS "cancelUrl",
         s."payment_id" AS "paymentId", s."expires_at" AS "expiresAt", s."created_at" AS "createdAt",
         s."completed_at" AS "completedAt", s."expired_at" AS "expiredAt", s."payment_link_id" AS "paymentLinkId",
         s."metadata", s."declined_payments" AS "declinedPayments", s."customer_email" AS "customerEmail",
         s."capture_method"::text AS "captureMethod",
         COALESCE((SELECT json_agg(json_build_object('checkoutSessionId', i."checkout_session_id", 'position', i."position",
                                                     'name', i."name", 'quantity', i."quantity", 'unitAmount', i."unit_amount")
                                   ORDER BY i."position")
                   FROM "checkout_items" AS i WHERE i."checkout_session_id" = s."id"), '[]'::json) AS "items"`;

const SELECT_SESSION_WITH_ITEMS = `
  SELECT ${SESSION_WITH_ITEMS_COLUMNS}
  FROM "checkout_sessions" AS s
  WHERE s."id" = $1 AND ($2::text IS NULL OR s."merchant_id" = $2)`;

const SELECT_SESSION_FOR_PAYMENT = `
  SELECT ${SESSION_WITH_ITEMS_COLUMNS}, m."clock_offset_seconds" AS "clockOffsetSeconds"
  FROM "checkout_sessions" AS s JOIN "merchants" AS m ON m."id" = s."merchant_id"
  WHERE s."id" = $1 AND ($2::text IS NULL OR s."merchant_id" = $2)`;

const sessionForPaymentRow = sessionWithItemsRow.extend({ clockOffsetSeconds: z.number().int() });

/**
 * A session about to be paid, with its items and its merchant's test clock offset (the payment happens at that
 * connection's time, lib/test-clocks/service.ts): one prepared statement. `merchantId` null reads any merchant's session (the
 * hosted page). Nothing is locked: the payment's statement checks again what this read decided.
 */
export async function findSessionForPayment(
  database: Db,
  merchantId: string | null,
  id: string,
): Promise<(CheckoutSessionWithItems & { clockOffsetSeconds: number }) | null> {
  const [row] = await sql(database, 'find-checkout-session-for-payment', SELECT_SESSION_FOR_PAYMENT, [id, merchantId]);
  return row ? sessionForPaymentRow.parse(row) : null;
}

/** The cursor of the API's list: the merchant's session's id and creation time. */
export async function findSessionCursor(database: Db, merchantId: string, id: string) {
  return database.checkoutSession.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** The filters of GET /v1/checkout-sessions, each optional; `metadata` is one pair as jsonb text (metadataContaining). */
export type SessionFilters = { orderReference?: string; status?: SessionStatusFilter; metadata?: string; at: Date };

// the status as the API reports it (sessionStatusWhere): `status` for complete and open, `openAt` for open too,
// `expiredBy` for expired
type SessionListValues = MaybeGiven<{
  merchantId: string;
  orderReference: string;
  status: 'open' | 'complete';
  openAt: Date;
  expiredBy: Date;
  metadata: string;
  afterCreatedAt: Date;
  afterId: string;
  take: number;
}>;

const list = params<SessionListValues>({
  merchantId: 'text',
  orderReference: 'text',
  status: '"CheckoutSessionStatus"',
  openAt: 'timestamptz',
  expiredBy: 'timestamptz',
  metadata: 'jsonb',
  afterCreatedAt: 'timestamptz',
  afterId: 'text',
  take: 'int',
});

// each filter through its index: (merchant_id, x, created_at, id), and a GIN index of the metadata
// (prisma/migrations/20261127124300_metadata_filters)
const LIST_SESSIONS = conditional<SessionListValues>(
  'list-checkout-sessions',
  {
    merchant: statementSql`s."merchant_id" = ${list.merchantId}`,
    orderReference: statementSql`s."order_reference" = ${list.orderReference}`,
    status: statementSql`s."status" = ${list.status}`,
    open: statementSql`s."expires_at" > ${list.openAt}`,
    expired: statementSql`(s."status" = 'expired' OR (s."status" = 'open' AND s."expires_at" <= ${list.expiredBy}))`,
    metadata: statementSql`s."metadata" @> ${list.metadata}`,
    after: statementSql`(s."created_at", s."id") < (${list.afterCreatedAt}, ${list.afterId})`,
  },
  (where) => statementSql`
    SELECT ${raw(SESSION_WITH_ITEMS_COLUMNS)}
    FROM "checkout_sessions" AS s WHERE ${where}
    ORDER BY s."created_at" DESC, s."id" DESC LIMIT ${list.take}`,
);

/** A page of the API's list, newest first, with items, after the `after` session when given. */
export async function findSessionsPage(
  database: Db,
  merchantId: string,
  filters: SessionFilters,
  page: { after?: Cursor; take: number },
): Promise<CheckoutSessionWithItems[]> {
  const { status, at } = filters;
  const values: SessionListValues = {
    merchantId,
    orderReference: filters.orderReference,
    status: status === 'open' || status === 'complete' ? status : undefined,
    openAt: status === 'open' ? at : undefined,
    expiredBy: status === 'expired' ? at : undefined,
    metadata: filters.metadata,
    afterCreatedAt: page.after?.createdAt,
    afterId: page.after?.id,
    take: page.take,
  };
  return (await run(database, LIST_SESSIONS(values), values)).map((row) => sessionWithItemsRow.parse(row));
}

// Expiring a session (open → expired, only while it is open and not yet past expires_at) and writing its
// checkout_session.expired event in one statement, the Idempotency-Key's claim with the answer too when the
// request sent one.
type ExpireValues = { sessionId: string; merchantId: string; at: Date };

const expire = params<ExpireValues>({ sessionId: 'text', merchantId: 'text', at: 'timestamptz' });

const expired = cte(
  'changed',
  statementSql`
  UPDATE "checkout_sessions" SET "status" = 'expired', "expired_at" = ${expire.at}
  FROM ${permitted}
  WHERE "checkout_sessions"."id" = ${expire.sessionId} AND "merchant_id" = ${expire.merchantId}
    AND "status" = 'open' AND "expires_at" > ${expire.at}
  RETURNING "checkout_sessions"."id"`,
);

const EXPIRE_SESSION = withKeyClaim(
  write<ExpireValues & EventValues, 'checkout_session_not_open'>({
    name: 'expire-checkout-session',
    writes: [expired, ...eventsWrittenAfter(expired)],
    refusals: [{ reason: 'checkout_session_not_open', when: statementSql`NOT EXISTS (SELECT 1 FROM ${expired})` }],
  }),
);

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [
  ...[INSERT_SESSION, EXPIRE_SESSION].flatMap((one) => [one.write.plain, one.statement]),
  LIST_SESSIONS.every,
];

/**
 * Expires an open session and writes its event, in one statement; with `claim`, claims the request's
 * Idempotency-Key with the answer too. Returns whether it expired the session (with `claim`: the claim's
 * outcome, or 'checkout_session_not_open' when nothing was written).
 */
export async function expireSession(
  database: Db,
  session: { id: string; merchantId: string; at: Date },
  event: NewEvent,
  claim?: ClaimWithAnswer,
) {
  const values = { sessionId: session.id, merchantId: session.merchantId, at: session.at, ...eventParams(event) };
  return runClaimableChange(database, EXPIRE_SESSION, values, claim);
}

const idRows = z.array(z.object({ id: z.string() }));

/**
 * The sweep's claim: persists expiry of up to batchSize sessions past expires_at in their merchant's time (its
 * test clock), skipping those another worker (or a payment) holds, and returns their ids.
 */
export async function expireDueSessions(database: Db, batchSize: number): Promise<string[]> {
  const rows = await claimOnEachClock(batchSize, async (clocks, limit) =>
    idRows.parse(await database.$queryRawUnsafe<unknown[]>(EXPIRE_DUE_SESSIONS[clocks], limit)),
  );
  return rows.map((row) => row.id);
}

const EXPIRE_DUE_SESSIONS = onEachClock((clocks) => {
  const due = dueOn(clocks, 's."expires_at"');
  return `UPDATE "checkout_sessions" SET "status" = 'expired', "expired_at" = "expires_at"
    WHERE "id" IN (
      SELECT s."id" FROM "checkout_sessions" AS s JOIN "merchants" AS m ON m."id" = s."merchant_id"
      WHERE s."status" = 'open' AND ${due.where}
      ORDER BY ${due.order} LIMIT $1::int
      FOR UPDATE OF s SKIP LOCKED)
    RETURNING "id"`;
});

export async function findSessionsWithItems(database: Db, ids: string[]) {
  return database.checkoutSession.findMany({ where: { id: { in: ids } }, include: { items: true } });
}

/** The dashboard's list: filtered by status and by id or order reference, a page at a time. */
export async function countAndFindSessions(
  database: Db,
  merchantId: string,
  filters: { status?: SessionStatusFilter; q?: string; at: Date },
  page: { skip: number; take: number },
) {
  const where: Prisma.CheckoutSessionWhereInput = {
    AND: [
      { merchantId },
      sessionStatusWhere(filters.status, filters.at),
      // an id finds its session at once; other text is part of an order reference
      filters.q
        ? isId('checkoutSession', filters.q)
          ? { id: filters.q }
          : { orderReference: referenceMatch(filters.q) }
        : {},
    ],
  };
  const [total, rows] = await Promise.all([
    database.checkoutSession.count({ where, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.checkoutSession.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}

/** The dashboard's detail: the session with its items and every payment attempt on it, oldest first. */
export async function findSessionWithItemsAndPayments(database: Db, merchantId: string, id: string) {
  return database.checkoutSession.findFirst({
    where: { id, merchantId },
    include: { items: { orderBy: { position: 'asc' } }, payments: { orderBy: { createdAt: 'asc' } } },
  });
}

/** A payment link's receipt: its session, only when complete and made from that link, with link and merchant. */
export async function findCompleteSessionOfLink(database: Db, linkId: string, sessionId: string) {
  return database.checkoutSession.findFirst({
    where: { id: sessionId, paymentLinkId: linkId, status: 'complete' },
    include: { paymentLink: true, merchant: { select: { name: true } } },
  });
}

/** Whether the merchant has made any session: its newest, one entry of the merchant's index by date. */
export async function hasSessions(database: Db, merchantId: string): Promise<boolean> {
  const newest = await database.checkoutSession.findFirst({
    where: { merchantId },
    orderBy: { createdAt: 'desc' },
    select: { id: true },
  });
  return newest !== null;
}
