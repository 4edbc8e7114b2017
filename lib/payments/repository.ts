import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
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
  sql as statementSql,
  write,
} from '@/lib/db/statement';
import { claimOnEachClock, dueOn, onEachClock } from '@/lib/test-clocks/repository';
import { eventParams, eventsWrittenAfter, type EventValues, type NewEvent } from '@/lib/events/repository';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runClaimableChange,
  runWriteWithKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';
import { isId } from '@/lib/core/ids';
import { AUTHORIZATION_DAYS } from './authorization';
import {
  Prisma,
  type CaptureMethod,
  type Currency,
  type Payment,
  type PaymentMethod,
  type PaymentStatus as PaymentStatusValue,
} from '@/lib/generated/prisma/client';
import {
  CaptureMethod as CaptureMethodValues,
  Currency as CurrencyValues,
  PaymentMethod as PaymentMethodValues,
  PaymentStatus,
} from '@/lib/generated/prisma/enums';
import { countLimit } from '@/lib/db/page';

// Every query on payments. Their amount_reserved and amount_refunded move only through the relative
// UPDATEs below (and the refunds repository's reservation), never by writing a value read earlier.

// The row of SELECT_PAYMENT, alias by alias: checked, so a column renamed in the schema but not in the query
// fails here rather than showing as undefined in a /v1 body.
const jsonValue = z.custom<Prisma.JsonValue>((value) => value !== undefined);
const paymentRow = z.object({
  id: z.string(),
  merchantId: z.string(),
  orderId: z.string(),
  orderReference: z.string(),
  checkoutSessionId: z.string(),
  status: z.enum(PaymentStatus),
  amount: z.number().int(),
  currency: z.enum(CurrencyValues),
  paymentMethod: z.enum(PaymentMethodValues),
  methodDetails: jsonValue,
  failureCode: z.string().nullable(),
  metadata: metadataField,
  customerEmail: z.string().nullable(),
  amountReserved: z.number().int(),
  amountRefunded: z.number().int(),
  refundsFailInSandbox: z.boolean(),
  createdAt: z.date(),
  paymentLinkId: z.string().nullable(),
  captureMethod: z.enum(CaptureMethodValues),
  amountCaptured: z.number().int(),
  canceledAt: z.date().nullable(),
  cancellationReason: z.string().nullable(),
}) satisfies z.ZodType<Payment>;

/** The columns of a payment row as paymentRow reads them; `table` qualifies them. */
const PAYMENT_COLUMNS = (table = '') => {
  const t = table ? `${table}.` : '';
  return `${t}"id", ${t}"merchant_id" AS "merchantId", ${t}"order_id" AS "orderId", ${t}"order_reference" AS "orderReference",
         ${t}"checkout_session_id" AS "checkoutSessionId", ${t}"status"::text AS "status", ${t}"amount",
         ${t}"currency"::text AS "currency", ${t}"payment_method"::text AS "paymentMethod", ${t}"method_details" AS "methodDetails",
         ${t}"failure_code" AS "failureCode", ${t}"metadata", ${t}"amount_reserved" AS "amountReserved",
         ${t}"amount_refunded" AS "amountRefunded", ${t}"refunds_fail_in_sandbox" AS "refundsFailInSandbox",
         ${t}"created_at" AS "createdAt", ${t}"payment_link_id" AS "paymentLinkId", ${t}"customer_email" AS "customerEmail",
         ${t}"capture_method"::text AS "captureMethod", ${t}"amount_captured" AS "amountCaptured",
         ${t}"canceled_at" AS "canceledAt", ${t}"cancellation_reason" AS "cancellationReason"`;
};

const SELECT_PAYMENT = `
  SELECT ${PAYMENT_COLUMNS()}
  FROM "payments" WHERE "id" = $1 AND "merchant_id" = $2`;

/** The merchant's payment, in one prepared statement (GET /v1/payments/{id}, and a refund's rules). */
export async function findPayment(database: Db, merchantId: string, id: string): Promise<Payment | null> {
  const [row] = await sql(database, 'find-payment', SELECT_PAYMENT, [id, merchantId]);
  return row ? paymentRow.parse(row) : null;
}

/** By id alone: for a payment already found under its merchant, read again inside a transaction. */
export async function findPaymentByIdOrThrow(database: Db, id: string) {
  return database.payment.findUniqueOrThrow({ where: { id } });
}

export async function findPaymentCursor(database: Db, merchantId: string, id: string) {
  return database.payment.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** The filters of GET /v1/payments, each optional; `metadata` is one pair as jsonb text (metadataContaining). */
export type PaymentFilters = {
  orderReference?: string;
  status?: PaymentStatusValue;
  customerEmail?: string;
  checkoutSessionId?: string;
  metadata?: string;
};

type PaymentListValues = MaybeGiven<
  PaymentFilters & { merchantId: string; afterCreatedAt: Date; afterId: string; take: number }
>;

const list = params<PaymentListValues>({
  merchantId: 'text',
  orderReference: 'text',
  status: '"PaymentStatus"',
  customerEmail: 'text',
  checkoutSessionId: 'text',
  metadata: 'jsonb',
  afterCreatedAt: 'timestamptz',
  afterId: 'text',
  take: 'int',
});

// each filter through its index: (merchant_id, x, created_at, id), a trigram index for the e-mail (ILIKE is
// Prisma's case-insensitive equals, as the dashboard's search asks), checkout_session_id's, and a GIN index of
// the metadata (prisma/migrations/20261127124300_metadata_filters)
const LIST_PAYMENTS = conditional<PaymentListValues>(
  'list-payments',
  {
    merchant: statementSql`"merchant_id" = ${list.merchantId}`,
    orderReference: statementSql`"order_reference" = ${list.orderReference}`,
    status: statementSql`"status" = ${list.status}`,
    customerEmail: statementSql`"customer_email" ILIKE ${list.customerEmail}`,
    checkoutSessionId: statementSql`"checkout_session_id" = ${list.checkoutSessionId}`,
    metadata: statementSql`"metadata" @> ${list.metadata}`,
    after: statementSql`("created_at", "id") < (${list.afterCreatedAt}, ${list.afterId})`,
  },
  (where) => statementSql`
    SELECT ${raw(PAYMENT_COLUMNS())}
    FROM "payments" WHERE ${where}
    ORDER BY "created_at" DESC, "id" DESC LIMIT ${list.take}`,
);

/** One page of GET /v1/payments, newest first, after the `after` payment when given. */
export async function findPaymentsPage(
  database: Db,
  merchantId: string,
  filters: PaymentFilters,
  page: { after?: Cursor; take: number },
): Promise<Payment[]> {
  const values: PaymentListValues = {
    merchantId,
    orderReference: filters.orderReference,
    status: filters.status,
    customerEmail: filters.customerEmail === undefined ? undefined : exactly(filters.customerEmail),
    checkoutSessionId: filters.checkoutSessionId,
    metadata: filters.metadata,
    afterCreatedAt: page.after?.createdAt,
    afterId: page.after?.id,
    take: page.take,
  };
  return (await run(database, LIST_PAYMENTS(values), values)).map((row) => paymentRow.parse(row));
}

/** An address for ILIKE: its own wildcards escaped, so that it matches that address alone, whatever its case. */
function exactly(email: string): string {
  return email.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`);
}

// A payment attempt in one statement: the session's conditional UPDATE (still open and unexpired at the
// payment's time; a decline also counts itself there, under the hosted page's limit), then for an accepted
// payment (succeeded, or authorized to be captured later) the order's (not yet paid nor held), then the payment
// row and its events with their deliveries. The session's row is taken before the order's, as everywhere. A
// concurrent payment of the session or the order makes its UPDATE find no row (PostgreSQL checks the condition
// again on the row that payment left), and the statement refuses: a double click, two tabs or two sessions of one
// order pay once. The SQL: repository.sql beside this file.
type PaymentValues = {
  sessionId: string;
  at: Date;
  accepted: boolean;
  status: PaymentStatusValue;
  declineLimit: number | null;
  paymentId: string;
  merchantId: string;
  orderReference: string;
  amount: number;
  currency: Currency;
  method: PaymentMethod;
  methodDetails: string;
  failureCode: string | null;
  refundsFail: boolean;
  metadata: string;
  paymentLinkId: string | null;
  customerEmail: string | null;
  captureMethod: CaptureMethod;
  amountCaptured: number;
};

const p = params<PaymentValues>({
  sessionId: 'text',
  at: 'timestamptz',
  accepted: 'boolean',
  status: '"PaymentStatus"',
  declineLimit: 'int',
  paymentId: 'text',
  merchantId: 'text',
  orderReference: 'text',
  amount: 'int',
  currency: '"Currency"',
  method: '"PaymentMethod"',
  methodDetails: 'jsonb',
  failureCode: 'text',
  refundsFail: 'boolean',
  metadata: 'jsonb',
  paymentLinkId: 'text',
  customerEmail: 'text',
  captureMethod: '"CaptureMethod"',
  amountCaptured: 'int',
});

const payable = cte(
  'payable',
  statementSql`
  UPDATE "checkout_sessions" AS s SET
    "status" = CASE WHEN ${p.accepted} THEN 'complete'::"CheckoutSessionStatus" ELSE s."status" END,
    "payment_id" = CASE WHEN ${p.accepted} THEN ${p.paymentId} ELSE s."payment_id" END,
    "completed_at" = CASE WHEN ${p.accepted} THEN ${p.at} ELSE s."completed_at" END,
    "declined_payments" = s."declined_payments" + CASE WHEN ${p.accepted} THEN 0 ELSE 1 END
  FROM ${permitted}
  WHERE s."id" = ${p.sessionId} AND s."status" = 'open' AND s."expires_at" > ${p.at}
    AND (${p.accepted} OR ${p.declineLimit} IS NULL OR s."declined_payments" < ${p.declineLimit})
  RETURNING s."order_id"`,
);

// an authorization holds the order as a payment does: "paid" on its row until the authorization is canceled
const paidOrder = cte(
  'paid_order',
  statementSql`
  UPDATE "orders" AS o SET "status" = 'paid', "payment_id" = ${p.paymentId}
  FROM ${payable} AS p
  WHERE ${p.accepted} AND o."id" = p."order_id" AND o."status" <> 'paid'
  RETURNING o."id"`,
);

const recorded = cte(
  'recorded',
  statementSql`
  INSERT INTO "payments" ("id", "merchant_id", "order_id", "order_reference", "checkout_session_id", "status",
    "amount", "currency", "payment_method", "method_details", "failure_code", "refunds_fail_in_sandbox",
    "metadata", "created_at", "payment_link_id", "customer_email", "capture_method", "amount_captured")
  SELECT ${p.paymentId}, ${p.merchantId}, p."order_id", ${p.orderReference}, ${p.sessionId}, ${p.status},
         ${p.amount}, ${p.currency}, ${p.method}, ${p.methodDetails}, ${p.failureCode},
         ${p.refundsFail}, ${p.metadata}, ${p.at}, ${p.paymentLinkId}, ${p.customerEmail}, ${p.captureMethod},
         ${p.amountCaptured}
  FROM ${payable} AS p
  WHERE NOT ${p.accepted} OR EXISTS (SELECT 1 FROM ${paidOrder})
  RETURNING "id"`,
);

/** Why a payment's statement wrote nothing (the caller reads the session again to say why). */
export type PaymentRefusal = 'checkout_session_not_payable' | 'order_already_paid';

const RECORD_PAYMENT = write<PaymentValues & EventValues, PaymentRefusal>({
  name: 'record-payment',
  writes: [payable, paidOrder, recorded, ...eventsWrittenAfter(recorded)],
  refusals: [
    { reason: 'checkout_session_not_payable', when: statementSql`NOT EXISTS (SELECT 1 FROM ${payable})` },
    // the session was completed by then: undone
    {
      reason: 'order_already_paid',
      when: statementSql`NOT EXISTS (SELECT 1 FROM ${recorded})`,
      afterWrites: true,
    },
  ],
});

const RECORD_PAYMENT_CLAIMING_KEY = withKeyClaim(RECORD_PAYMENT);

// Capturing and canceling an authorization: each one conditional UPDATE of the payment, from requires_capture
// only, with its event (and for a cancel, the order freed) in the same statement. Two captures, a capture and a
// cancel, or a capture and the expiry sweep, on any number of processes: PostgreSQL checks the condition again on
// the row the first one left, so the second finds no row and is refused. An authorization is due to be canceled
// AUTHORIZATION_DAYS after it was made, on the connection's clock: a capture after that is refused too, whether or
// not the sweep has run yet.
export { AUTHORIZATION_DAYS };

type SettleValues = { paymentId: string; merchantId: string; at: Date };
const settle = params<SettleValues & { amountToCapture: number; reason: CancellationReason }>({
  paymentId: 'text',
  merchantId: 'text',
  at: 'timestamptz',
  amountToCapture: 'int',
  reason: 'text',
});

const stillAuthorized = statementSql`"payments"."status" = 'requires_capture'
    AND "payments"."created_at" > ${settle.at} - interval '${raw(AUTHORIZATION_DAYS)} days'`;

const captured = cte(
  'changed',
  statementSql`
  UPDATE "payments" SET "status" = 'succeeded', "amount_captured" = ${settle.amountToCapture}
  FROM ${permitted}
  WHERE "payments"."id" = ${settle.paymentId} AND "payments"."merchant_id" = ${settle.merchantId}
    AND ${stillAuthorized} AND ${settle.amountToCapture} BETWEEN 1 AND "payments"."amount"
  RETURNING "payments"."id"`,
);

const CAPTURE_PAYMENT = withKeyClaim(
  write<SettleValues & { amountToCapture: number } & EventValues, 'payment_not_capturable'>({
    name: 'capture-payment',
    writes: [captured, ...eventsWrittenAfter(captured)],
    refusals: [{ reason: 'payment_not_capturable', when: statementSql`NOT EXISTS (SELECT 1 FROM ${captured})` }],
  }),
);

/** Why an authorization was canceled: by the merchant, or by the sweep when its days ran out. */
export type CancellationReason = 'requested_by_merchant' | 'expired';

// the sweep cancels only what is due by then, the merchant whatever is still authorized
const canceled = cte(
  'changed',
  statementSql`
  UPDATE "payments" SET "status" = 'canceled', "canceled_at" = ${settle.at}, "cancellation_reason" = ${settle.reason}
  FROM ${permitted}
  WHERE "payments"."id" = ${settle.paymentId} AND "payments"."merchant_id" = ${settle.merchantId}
    AND "payments"."status" = 'requires_capture'
    AND (${settle.reason} <> 'expired'
         OR "payments"."created_at" <= ${settle.at} - interval '${raw(AUTHORIZATION_DAYS)} days')
  RETURNING "payments"."id", "payments"."order_id"`,
);

const freedOrder = cte(
  'freed_order',
  statementSql`
  UPDATE "orders" AS o SET "status" = 'unpaid', "payment_id" = NULL
  FROM ${canceled} AS c
  WHERE o."id" = c."order_id" AND o."payment_id" = c."id"`,
);

const CANCEL_PAYMENT = withKeyClaim(
  write<SettleValues & { reason: CancellationReason } & EventValues, 'payment_not_cancelable'>({
    name: 'cancel-payment',
    writes: [canceled, freedOrder, ...eventsWrittenAfter(canceled)],
    refusals: [{ reason: 'payment_not_cancelable', when: statementSql`NOT EXISTS (SELECT 1 FROM ${canceled})` }],
  }),
);

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [
  RECORD_PAYMENT.plain,
  RECORD_PAYMENT_CLAIMING_KEY.statement,
  ...[CAPTURE_PAYMENT, CANCEL_PAYMENT].flatMap((one) => [one.write.plain, one.statement]),
  LIST_PAYMENTS.every,
];

function paymentValues(payment: Payment, declineLimit: number | undefined): PaymentValues {
  return {
    sessionId: payment.checkoutSessionId,
    at: payment.createdAt,
    accepted: payment.status !== 'failed',
    status: payment.status,
    declineLimit: declineLimit ?? null,
    paymentId: payment.id,
    merchantId: payment.merchantId,
    orderReference: payment.orderReference,
    amount: payment.amount,
    currency: payment.currency,
    method: payment.paymentMethod,
    methodDetails: JSON.stringify(payment.methodDetails),
    failureCode: payment.failureCode,
    refundsFail: payment.refundsFailInSandbox,
    metadata: JSON.stringify(payment.metadata),
    paymentLinkId: payment.paymentLinkId,
    customerEmail: payment.customerEmail,
    captureMethod: payment.captureMethod,
    amountCaptured: payment.amountCaptured,
  };
}

/**
 * Records a payment attempt of an open session with its events (payment.succeeded or payment.authorized, and
 * checkout_session.completed; or payment.failed), in one statement: an accepted payment completes the session
 * and pays (or holds) its order. With `claim`, claims the request's Idempotency-Key with the answer too. Returns
 * true (with `claim`: the claim's outcome), or the refusal when nothing was written: the session is no longer
 * open, has expired or reached `declineLimit` (for a decline), or its order was paid or is held.
 */
export async function recordPayment(
  database: Db,
  payment: Payment,
  events: NewEvent[],
  options: { declineLimit?: number; claim?: ClaimWithAnswer },
): Promise<true | ClaimOutcome | PaymentRefusal> {
  const values = { ...paymentValues(payment, options.declineLimit), ...eventParams(...events) };
  const result = await runWriteWithKey(database, RECORD_PAYMENT_CLAIMING_KEY, values, options.claim);
  if (result.refused) return result.refused;
  return result.outcome ?? true;
}

/**
 * Captures `amountToCapture` of an authorization still standing at `at` (the connection's time), with its event;
 * with `claim`, claims the request's Idempotency-Key with the answer too. Returns whether it captured (with
 * `claim`: the claim's outcome), or 'payment_not_capturable' when nothing was written.
 */
export async function capturePaymentInOneStatement(
  database: Db,
  change: SettleValues & { amountToCapture: number },
  event: NewEvent,
  claim?: ClaimWithAnswer,
) {
  return runClaimableChange(database, CAPTURE_PAYMENT, { ...change, ...eventParams(event) }, claim);
}

/**
 * Cancels an authorization (by the merchant; or, when `reason` is expired, only one due at `at`), frees its order
 * and writes its event; with `claim`, claims the request's Idempotency-Key with the answer too. Returns whether it
 * canceled (with `claim`: the claim's outcome), or 'payment_not_cancelable' when nothing was written.
 */
export async function cancelPaymentInOneStatement(
  database: Db,
  change: SettleValues & { reason: CancellationReason },
  event: NewEvent,
  claim?: ClaimWithAnswer,
) {
  return runClaimableChange(database, CANCEL_PAYMENT, { ...change, ...eventParams(event) }, claim);
}

const dueAuthorizationRows = z.array(
  z.object({ id: z.string(), merchantId: z.string(), clockOffsetSeconds: z.number().int() }),
);
/** An authorization past its days, with its merchant's clock offset: it is canceled at that connection's time. */
export type DueAuthorization = z.infer<typeof dueAuthorizationRows>[number];

/** Authorizations made AUTHORIZATION_DAYS ago or more in their merchant's time (its test clock), oldest first. */
export async function findDueAuthorizations(database: Db, batchSize: number): Promise<DueAuthorization[]> {
  return claimOnEachClock(batchSize, async (clocks, limit) =>
    dueAuthorizationRows.parse(await database.$queryRawUnsafe<unknown[]>(DUE_AUTHORIZATIONS[clocks], limit)),
  );
}

const DUE_AUTHORIZATIONS = onEachClock((clocks) => {
  const due = dueOn(clocks, 'p."created_at"', `interval '${AUTHORIZATION_DAYS} days'`);
  return `SELECT p."id", p."merchant_id" AS "merchantId", m."clock_offset_seconds" AS "clockOffsetSeconds"
    FROM "payments" AS p JOIN "merchants" AS m ON m."id" = p."merchant_id"
    WHERE p."status" = 'requires_capture' AND ${due.where}
    ORDER BY ${due.order} LIMIT $1::int`;
});

/** Gives a refund's reserved amount back (declined, canceled or failed refund). */
export async function releasePaymentReservation(database: Db, paymentId: string, amount: number): Promise<void> {
  await database.$executeRaw`UPDATE "payments" SET "amount_reserved" = "amount_reserved" - ${amount} WHERE "id" = ${paymentId}`;
}

/** A completed refund's amount, added in the UPDATE itself so concurrent completions all count. */
export async function addPaymentRefunded(database: Db, paymentId: string, amount: number): Promise<void> {
  await database.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" + ${amount} WHERE "id" = ${paymentId}`;
}

/** A payment's status with its refunds folded in, as the dashboard shows it (lib/payments/dashboard.ts). */
export type PaymentListStatus =
  'succeeded' | 'partially_refunded' | 'refunded' | 'failed' | 'requires_capture' | 'canceled';

export type PaymentSearch = {
  status?: PaymentListStatus;
  method?: PaymentMethod;
  currency?: Currency;
  createdAt?: { gte?: Date; lt?: Date };
  /** a payment id, a checkout session id, or part of an order reference or of a customer e-mail */
  q?: string;
  skip: number;
  take: number;
};

/**
 * The dashboard's list: one page of matches, newest first, and how many match in all (capped). A checkout
 * session is one row, its payment: the one that succeeded, else its latest attempt; `attempts` counts every
 * attempt of that session, so "3 attempts" can be said on the row. A search by payment id finds that attempt.
 */
export async function searchPaymentRows(database: Db, merchantId: string, search: PaymentSearch) {
  const where = searchConditions(merchantId, search);
  const [counted, rows] = await Promise.all([
    database.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS "total" FROM (
        SELECT 1 FROM "payments" AS p WHERE ${where}
        ORDER BY p."created_at" DESC, p."id" DESC LIMIT ${countLimit(search.skip)}
      ) AS matches`,
    database.$queryRaw<unknown[]>`
      SELECT ${Prisma.raw(PAYMENT_COLUMNS('p'))},
        (SELECT count(*)::int FROM "payments" AS a WHERE a."checkout_session_id" = p."checkout_session_id") AS "attempts"
      FROM "payments" AS p WHERE ${where}
      ORDER BY p."created_at" DESC, p."id" DESC OFFSET ${search.skip} LIMIT ${search.take}`,
  ]);
  return {
    total: counted[0]?.total ?? 0,
    rows: rows.map((row) => paymentRow.extend({ attempts: z.number().int() }).parse(row)),
  };
}

/** The list's filters as SQL on payments `p`; a session's other attempts are left out but for an id search. */
function searchConditions(merchantId: string, search: PaymentSearch): Prisma.Sql {
  const conditions = [Prisma.sql`p."merchant_id" = ${merchantId}`];
  if (search.status) conditions.push(statusSql(search.status));
  if (search.method) conditions.push(Prisma.sql`p."payment_method" = ${search.method}::"PaymentMethod"`);
  if (search.currency) conditions.push(Prisma.sql`p."currency" = ${search.currency}::"Currency"`);
  if (search.createdAt?.gte) conditions.push(Prisma.sql`p."created_at" >= ${search.createdAt.gte}`);
  if (search.createdAt?.lt) conditions.push(Prisma.sql`p."created_at" < ${search.createdAt.lt}`);
  if (search.q) conditions.push(matchingSql(search.q));
  if (!(search.q && isId('payment', search.q))) conditions.push(SESSION_OUTCOME);
  return Prisma.join(conditions, ' AND ');
}

// the session's payment: no other attempt of the session succeeded (or otherwise did not fail), and a failed
// one is the latest, asked per row through the attempts' checkout_session_id index: OFFSET 0 keeps PostgreSQL
// from making it an anti-join, which it planned as a hash of every merchant's payments (lib/db/explain.test.ts)
const SESSION_OUTCOME = Prisma.sql`NOT EXISTS (
  SELECT 1 FROM "payments" AS o WHERE o."checkout_session_id" = p."checkout_session_id" AND o."id" <> p."id"
    AND (o."status" <> 'failed' OR (p."status" = 'failed' AND (o."created_at", o."id") > (p."created_at", p."id")))
  OFFSET 0)`;

/** The same rule as paymentListStatus, on the payment row itself (two columns compared, no join). */
function statusSql(status: PaymentListStatus): Prisma.Sql {
  switch (status) {
    case 'succeeded':
      return Prisma.sql`p."status" = 'succeeded' AND p."amount_refunded" = 0`;
    case 'partially_refunded':
      return Prisma.sql`p."status" = 'succeeded' AND p."amount_refunded" > 0 AND p."amount_refunded" < p."amount_captured"`;
    case 'refunded':
      return Prisma.sql`p."status" = 'succeeded' AND p."amount_refunded" > 0 AND p."amount_refunded" >= p."amount_captured"`;
    case 'failed':
      return Prisma.sql`p."status" = 'failed'`;
    case 'requires_capture':
      return Prisma.sql`p."status" = 'requires_capture'`;
    case 'canceled':
      return Prisma.sql`p."status" = 'canceled'`;
  }
}

/**
 * An id finds its payment at once; text with an @ is part of a customer's e-mail; other text is part of an
 * order reference (docs/performance.md). Both partial matches go through trigram indexes; text under three
 * characters has no trigram, so it matches a whole value.
 */
function matchingSql(q: string): Prisma.Sql {
  if (isId('payment', q)) return Prisma.sql`p."id" = ${q}`;
  if (isId('checkoutSession', q)) return Prisma.sql`p."checkout_session_id" = ${q}`;
  const column = Prisma.raw(q.includes('@') ? 'p."customer_email"' : 'p."order_reference"');
  if (q.length < 3) return Prisma.sql`${column} = ${q}`;
  return Prisma.sql`${column} ILIKE ${`%${q.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`}`;
}

/** A payment with its session (and items, in order) and its refunds, newest first; null when not this merchant's. */
export async function findPaymentWithSessionAndRefunds(database: Db, merchantId: string, id: string) {
  return database.payment.findFirst({
    where: { id, merchantId },
    include: {
      checkoutSession: { include: { items: { orderBy: { position: 'asc' } } } },
      refundRequests: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] },
    },
  });
}

/** The session's other attempts, oldest first. */
export async function findOtherAttempts(
  database: Db,
  merchantId: string,
  checkoutSessionId: string,
  paymentId: string,
) {
  return database.payment.findMany({
    where: { merchantId, checkoutSessionId, id: { not: paymentId } },
    orderBy: { createdAt: 'asc' },
  });
}

const dailyFiguresRow = z.object({
  day: z.date(),
  currency: z.enum(['CAD', 'USD']),
  gross: z.bigint(),
  succeeded: z.bigint(),
  failed: z.bigint(),
  refunded: z.bigint(),
  refunds: z.bigint(),
});
export type DailyFiguresRow = z.infer<typeof dailyFiguresRow>;

/**
 * Home's figures in one statement: a row per day from firstDay to lastDay and per currency, each payment
 * and completed refund on the day it was requested in timeZone, from `from` on. Read from
 * payment_figures (quarter hours, kept by triggers: see prisma/schema.prisma), not from the payments.
 */
export async function findDailyFigures(
  database: Db,
  merchantId: string,
  window: { firstDay: string; lastDay: string; from: Date; timeZone: string },
): Promise<DailyFiguresRow[]> {
  const { firstDay, lastDay, from, timeZone } = window;
  const rows = await database.$queryRaw<unknown[]>`
    WITH days AS (
      SELECT d::date AS day, c::"Currency" AS currency
      FROM generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') AS d
      CROSS JOIN unnest(ARRAY['CAD', 'USD']) AS c
    ),
    figures AS (
      SELECT (period_start AT TIME ZONE ${timeZone})::date AS day, currency,
             sum(gross)::bigint AS gross, sum(succeeded)::bigint AS succeeded, sum(failed)::bigint AS failed,
             sum(refunded)::bigint AS refunded, sum(refunds)::bigint AS refunds
      FROM payment_figures
      WHERE merchant_id = ${merchantId} AND period_start >= ${from}
      GROUP BY 1, 2
    )
    SELECT days.day, days.currency,
           coalesce(f.gross, 0) AS gross, coalesce(f.succeeded, 0) AS succeeded, coalesce(f.failed, 0) AS failed,
           coalesce(f.refunded, 0) AS refunded, coalesce(f.refunds, 0) AS refunds
    FROM days
    LEFT JOIN figures AS f ON f.day = days.day AND f.currency = days.currency
    ORDER BY days.day, days.currency`;
  return z.array(dailyFiguresRow).parse(rows);
}

/** A page of the attempts (succeeded and failed) made through one payment link, newest first; and their total. */
export async function countAndFindPaymentsOfLink(
  database: Db,
  merchantId: string,
  linkId: string,
  page: { skip: number; take: number },
) {
  const where: Prisma.PaymentWhereInput = { merchantId, paymentLinkId: linkId };
  const [total, rows] = await Promise.all([
    database.payment.count({ where, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.payment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}
