import { z } from 'zod';
import { NEWEST_FIRST } from '@/lib/api/pagination';
import { sql, type Db } from '@/lib/db';
import { eventValues, eventWrites, type NewEvent } from '@/lib/events/repository';
import { RefundStatus as RefundStatusValues } from '@/lib/generated/prisma/enums';
import { claimOnEachClock, dueOn, merchantNowSql, onEachClock } from '@/lib/test-clocks/repository';
import {
  CLAIM_OUTCOME,
  CLAIM_WITH_ANSWER_VALUES,
  claimableChange,
  type ClaimOutcome,
  claimWithAnswer,
  type ClaimWithAnswer,
  runClaimableChange,
  runClaimingStatement,
} from '@/lib/idempotency/repository';
import type { Prisma, RefundRequest, RefundStatus } from '@/lib/generated/prisma/client';
import { countLimit } from '@/lib/db/page';

// Every query on refund_requests. A request moves between states only through UPDATEs that check the
// state they leave, so two people or two workers move it once.

// The reservation, the refund request and its refund_request.created event in one statement: the request
// exists exactly when its amount was reserved, and the conditional UPDATE is what keeps concurrent refunds
// within the payment. `$(n)` is the placeholder of refundValues' n-th value, then eventValues'; `gate` is
// what the reservation selects FROM.
const refundWrites = ($: (n: number) => string, gate = '') => `
  reserved AS (
    UPDATE "payments" SET "amount_reserved" = "amount_reserved" + ${$(4)}::int ${gate}
    WHERE "payments"."id" = ${$(3)}::text AND "status" = 'succeeded' AND "amount_reserved" + ${$(4)}::int <= "amount"
    RETURNING "payments"."id", "currency"
  ), inserted AS (
    INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "reason",
      "crypto_refund_destination_note", "created_at", "updated_at", "metadata")
    SELECT ${$(1)}::text, ${$(2)}::text, r."id", ${$(4)}::int, r."currency", ${$(5)}::text, ${$(6)}::text,
           ${$(7)}::timestamptz, ${$(7)}::timestamptz, ${$(8)}::jsonb
    FROM reserved AS r
    RETURNING "id"
  ), ${eventWrites((n) => $(REFUND_VALUES + n), 'FROM inserted')}`;

const REFUND_VALUES = 8;

function refundValues(refund: RefundRequest): unknown[] {
  return [
    refund.id,
    refund.merchantId,
    refund.paymentId,
    refund.amount,
    refund.reason,
    refund.cryptoRefundDestinationNote,
    refund.createdAt,
    JSON.stringify(refund.metadata),
  ];
}

const RESERVE_AND_INSERT_REFUND = `
  WITH ${refundWrites((n) => `$${n}`)}
  SELECT EXISTS (SELECT 1 FROM inserted) AS "reserved"`;

const reservedRow = z.object({ reserved: z.boolean() });

/**
 * Reserves the refund's amount on its payment, inserts it and its event; false (nothing written) when it does
 * not fit.
 */
export async function reserveAndInsertRefund(database: Db, refund: RefundRequest, event: NewEvent): Promise<boolean> {
  const rows = await sql<object>(database, 'reserve-and-insert-refund', RESERVE_AND_INSERT_REFUND, [
    ...refundValues(refund),
    ...eventValues(event),
  ]);
  const [{ reserved }] = z.tuple([reservedRow]).parse(rows);
  return reserved;
}

const REFUND_EXCEEDS_AVAILABLE = 'refund_exceeds_available';

// The idempotent create as one statement: the key is claimed with the answer in it (claimWithAnswer) and the
// reservation is made FROM that claim. A refund that does not fit undoes the statement: its key stays free.
const RESERVE_AND_INSERT_REFUND_CLAIMING_KEY = `
  WITH ${claimWithAnswer()},
  ${refundWrites((n) => `$${CLAIM_WITH_ANSWER_VALUES + n}`, 'FROM "claimed"')}
  SELECT ${CLAIM_OUTCOME.columns},
    CASE WHEN c."id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM inserted)
      THEN abort_statement('${REFUND_EXCEEDS_AVAILABLE}') END AS "undone"
  FROM ${CLAIM_OUTCOME.from}`;

/**
 * reserveAndInsertRefund and the key's claim with the answer, in one statement (one round trip). Returns
 * whether this request claimed the key, else the record that holds it; 'refund_exceeds_available' when
 * nothing was written because the refund does not fit.
 */
export async function reserveAndInsertRefundClaimingKey(
  database: Db,
  refund: RefundRequest,
  event: NewEvent,
  claim: ClaimWithAnswer,
): Promise<ClaimOutcome | typeof REFUND_EXCEEDS_AVAILABLE> {
  const result = await runClaimingStatement(
    database,
    {
      name: 'reserve-and-insert-refund-claiming-key',
      text: RESERVE_AND_INSERT_REFUND_CLAIMING_KEY,
      values: [...refundValues(refund), ...eventValues(event)],
    },
    claim,
    { refusals: [REFUND_EXCEEDS_AVAILABLE] },
  );
  return 'refused' in result ? result.refused : result.outcome;
}

export async function findRefundRequest(database: Db, merchantId: string, id: string) {
  return database.refundRequest.findFirst({ where: { id, merchantId } });
}

export async function findRefundRequestByIdOrThrow(database: Db, id: string) {
  return database.refundRequest.findUniqueOrThrow({ where: { id } });
}

export async function findRefundRequestCursor(database: Db, merchantId: string, id: string) {
  return database.refundRequest.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** One page of GET /v1/refund-requests; `after` is the pagination's cursor condition. */
export async function findRefundRequestsPage(
  database: Db,
  merchantId: string,
  filters: { paymentId?: string; status?: RefundStatus },
  page: { after: object; take: number },
) {
  const base: Prisma.RefundRequestWhereInput = {
    merchantId,
    ...(filters.paymentId !== undefined ? { paymentId: filters.paymentId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
  return database.refundRequest.findMany({
    where: { AND: [base, page.after] },
    orderBy: NEWEST_FIRST,
    take: page.take,
  });
}

// Canceling a requested refund and giving its amount back to the payment in one statement, the
// Idempotency-Key's claim with the answer too when the request sent one.
const CANCEL_REFUND = claimableChange(
  'cancel-refund',
  'refund_not_cancelable',
  ($, gate) => `
  changed AS (
    UPDATE "refund_requests" SET "status" = 'canceled', "updated_at" = ${$(3)}::timestamptz ${gate}
    WHERE "refund_requests"."id" = ${$(1)}::text AND "merchant_id" = ${$(2)}::text AND "status" = 'requested'
    RETURNING "payment_id", "amount"
  ), released AS (
    UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount"
    FROM changed AS r WHERE "payments"."id" = r."payment_id"
  )`,
);

/**
 * Cancels a requested refund and releases its reservation, in one statement; with `claim`, claims the
 * request's Idempotency-Key with the answer too. Returns whether it canceled (with `claim`: the claim's
 * outcome, or 'refund_not_cancelable' when nothing was written).
 */
export async function cancelRequestedRefund(
  database: Db,
  refund: { id: string; merchantId: string; at: Date },
  claim?: ClaimWithAnswer,
) {
  return runClaimableChange(database, CANCEL_REFUND, [refund.id, refund.merchantId, refund.at], claim);
}

/** Moves a refund out of `requested`, checked in the UPDATE itself; false when it had already left. */
export async function moveRequestedRefund(
  database: Db,
  merchantId: string,
  id: string,
  to: Extract<RefundStatus, 'declined' | 'processing'>,
  at: Date,
): Promise<boolean> {
  const { count } = await database.refundRequest.updateMany({
    where: { id, merchantId, status: 'requested' },
    data: { status: to, updatedAt: at, ...(to === 'processing' ? { processingAt: at } : {}) },
  });
  return count === 1;
}

/** The automatic policy: every requested refund of such a merchant goes to the provider. */
export async function authorizeRequestedRefundsOfAutomaticMerchants(database: Db): Promise<number> {
  // at the merchant's time (its test clock): the provider finishes it REFUND_PROCESSING_DELAY_MS later in that time
  return database.$executeRawUnsafe(`
    UPDATE "refund_requests" AS r SET "status" = 'processing', "processing_at" = ${merchantNowSql('m')},
      "updated_at" = ${merchantNowSql('m')}
    FROM "merchants" AS m
    WHERE r."merchant_id" = m."id" AND m."refund_policy" = 'automatic' AND r."status" = 'requested'`);
}

const dueRefundRows = z.array(z.object({ id: z.string(), clockOffsetSeconds: z.number().int() }));
/** A claimed refund, with its merchant's clock offset: the provider finishes it at that connection's time. */
export type DueRefund = z.infer<typeof dueRefundRows>[number];

/**
 * Refunds processing for `delayMs` in their merchant's time (its test clock), oldest first, locked; SKIP LOCKED
 * lets workers share the queue.
 */
export async function claimDueRefunds(database: Db, delayMs: number, batchSize: number): Promise<DueRefund[]> {
  return claimOnEachClock(batchSize, async (clocks, limit) =>
    dueRefundRows.parse(await database.$queryRawUnsafe<unknown[]>(DUE_REFUNDS[clocks], delayMs / 1000, limit)),
  );
}

const DUE_REFUNDS = onEachClock((clocks) => {
  const due = dueOn(clocks, 'r."processing_at"', 'make_interval(secs => $1::float8)');
  return `SELECT r."id", m."clock_offset_seconds" AS "clockOffsetSeconds"
    FROM "refund_requests" AS r JOIN "merchants" AS m ON m."id" = r."merchant_id"
    WHERE r."status" = 'processing' AND ${due.where}
    ORDER BY ${due.order} LIMIT $2::int
    FOR UPDATE OF r SKIP LOCKED`;
});

// A test helper finishing a refund now, exactly as the provider would, in one statement: a processing refund,
// or a requested one of a merchant with the automatic policy (authorized on the spot), its payment's amounts
// and its event, the Idempotency-Key's claim with the answer too when the request sent one. The provider job
// locks a refund before finishing it, so this UPDATE waits for it and then finds the refund finished.
// $1 id, $2 merchant, $3 at, $4 failure_reason (null to complete), then the event's values.
const finishRefundNowAs = (outcome: 'completed' | 'failed') =>
  claimableChange(`finish-refund-${outcome}`, 'refund_not_pending', ($, gate) => {
    const amounts =
      outcome === 'completed'
        ? `"amount_refunded" = "payments"."amount_refunded" + r."amount"`
        : `"amount_reserved" = "payments"."amount_reserved" - r."amount"`;
    return `
  changed AS (
    UPDATE "refund_requests" AS r SET "status" = '${outcome}', "failure_reason" = ${$(4)}::text,
      "processing_at" = coalesce(r."processing_at", ${$(3)}::timestamptz), "updated_at" = ${$(3)}::timestamptz ${gate}
    WHERE r."id" = ${$(1)}::text AND r."merchant_id" = ${$(2)}::text
      AND (r."status" = 'processing' OR (r."status" = 'requested' AND EXISTS (
        SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic')))
    RETURNING r."payment_id", r."amount"
  ), finished_amounts AS (
    UPDATE "payments" SET ${amounts} FROM changed AS r WHERE "payments"."id" = r."payment_id"
  ), ${eventWrites((n) => $(4 + n), 'FROM changed')}`;
  });

const FINISH_REFUND_NOW = { completed: finishRefundNowAs('completed'), failed: finishRefundNowAs('failed') };

/**
 * Finishes a refund now (see FINISH_REFUND_NOW), with its event; with `claim`, claims the request's
 * Idempotency-Key with the answer too. Returns whether it finished (with `claim`: the claim's outcome, or
 * 'refund_not_pending' when nothing was written).
 */
export async function finishRefundInOneStatement(
  database: Db,
  refund: { id: string; merchantId: string; at: Date; failureReason: string | null },
  event: NewEvent,
  claim?: ClaimWithAnswer,
) {
  const change = FINISH_REFUND_NOW[refund.failureReason === null ? 'completed' : 'failed'];
  const values = [refund.id, refund.merchantId, refund.at, refund.failureReason, ...eventValues(event)];
  return runClaimableChange(database, change, values, claim);
}

export async function findRefundWithPayment(database: Db, id: string) {
  return database.refundRequest.findUniqueOrThrow({ where: { id }, include: { payment: true } });
}

export async function markRefundFailed(database: Db, id: string, failureReason: string, at: Date) {
  return database.refundRequest.update({ where: { id }, data: { status: 'failed', failureReason, updatedAt: at } });
}

export async function markRefundCompleted(database: Db, id: string, at: Date) {
  return database.refundRequest.update({ where: { id }, data: { status: 'completed', updatedAt: at } });
}

/**
 * Whether the merchant has any refund in one of `statuses`: the first found, in no order (a count with
 * `take` sorts by id, and with none to find would walk every refund's id).
 */
export async function hasRefundsIn(database: Db, merchantId: string, statuses: RefundStatus[]): Promise<boolean> {
  const found = await database.refundRequest.findFirst({
    where: { merchantId, status: { in: statuses } },
    select: { id: true },
  });
  return found !== null;
}

/** The dashboard's list: one page, newest first, each with its payment's order reference, and the total. */
export async function searchRefundRows(
  database: Db,
  merchantId: string,
  search: { status?: RefundStatus; skip: number; take: number },
) {
  const where = { merchantId, ...(search.status ? { status: search.status } : {}) };
  const [total, rows] = await Promise.all([
    database.refundRequest.count({ where, orderBy: NEWEST_FIRST, take: countLimit(search.skip) }),
    database.refundRequest.findMany({
      where,
      include: { payment: { select: { orderReference: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: search.skip,
      take: search.take,
    }),
  ]);
  return { total, rows };
}

/**
 * How many of the merchant's refunds are in each status, each counted only up to `upTo`: one index range
 * per status, its value written in the query (a status taken from a join leaves the planner reading the
 * whole table for each), never every refund the merchant ever had.
 */
export async function countRefundsByStatus(database: Db, merchantId: string, upTo: number) {
  return Promise.all(
    Object.values(RefundStatusValues).map(async (status) => ({
      status,
      count: await database.refundRequest.count({
        where: { merchantId, status },
        orderBy: NEWEST_FIRST,
        take: upTo,
      }),
    })),
  );
}

/** How many of the merchant's refunds are in `status`, counted up to `upTo`. */
export async function countRefundsIn(database: Db, merchantId: string, status: RefundStatus, upTo: number) {
  return database.refundRequest.count({ where: { merchantId, status }, orderBy: NEWEST_FIRST, take: upTo });
}

export async function findRefundStatus(database: Db, merchantId: string, id: string) {
  return database.refundRequest.findFirst({ where: { id, merchantId }, select: { status: true } });
}
