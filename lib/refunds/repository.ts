import { z } from 'zod';
import { metadataField } from '@/lib/core/metadata';
import { NEWEST_FIRST, type Cursor } from '@/lib/core/pagination';
import type { Db } from '@/lib/db';
import {
  conditional,
  cte,
  type Cte,
  type MaybeGiven,
  params,
  permitted,
  raw,
  run,
  sql as statementSql,
  write,
} from '@/lib/db/statement';
import { eventParams, eventsWrittenAfter, type EventValues, type NewEvent } from '@/lib/events/repository';
import { Currency as CurrencyValues, RefundStatus as RefundStatusValues } from '@/lib/generated/prisma/enums';
import { claimOnEachClock, dueOn, onEachClock } from '@/lib/test-clocks/repository';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runClaimableChange,
  runWriteClaimingKey,
  runWriteWithKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';
import type { RefundRequest, RefundStatus } from '@/lib/generated/prisma/client';
import { countLimit } from '@/lib/db/page';

// Every query on refund_requests. A request moves between states only through UPDATEs that check the
// state they leave, so two people or two workers move it once.

/**
 * The jsonb merged into a refund's events' data.object (eventsWrittenAfter): the metadata of the payment that
 * `changed` names in its column `paymentColumn`, read by the statement itself.
 */
const paymentMetadataOf = (changed: Cte<never>, paymentColumn: 'id' | 'payment_id') =>
  statementSql`(SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN ${changed} AS c ON p."id" = c."${raw(paymentColumn)}")`;

// The reservation, the refund request and its refund_request.created event in one statement: the request
// exists exactly when its amount was reserved, and the conditional UPDATE is what keeps concurrent refunds
// within the payment. The SQL: repository.sql beside this file.
type RefundValues = {
  refundId: string;
  merchantId: string;
  paymentId: string;
  amount: number;
  reason: string | null;
  cryptoNote: string | null;
  at: Date;
  metadata: string;
};

const r = params<RefundValues>({
  refundId: 'text',
  merchantId: 'text',
  paymentId: 'text',
  amount: 'int',
  reason: 'text',
  cryptoNote: 'text',
  at: 'timestamptz',
  metadata: 'jsonb',
});

const reserved = cte(
  'reserved',
  statementSql`
  UPDATE "payments" SET "amount_reserved" = "amount_reserved" + ${r.amount}
  FROM ${permitted}
  WHERE "payments"."id" = ${r.paymentId} AND "status" = 'succeeded'
    AND "amount_reserved" + ${r.amount} <= "amount_captured"
  RETURNING "payments"."id", "currency"`,
);

const inserted = cte(
  'inserted',
  statementSql`
  INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "reason",
    "crypto_refund_destination_note", "created_at", "updated_at", "metadata")
  SELECT ${r.refundId}, ${r.merchantId}, p."id", ${r.amount}, p."currency", ${r.reason}, ${r.cryptoNote},
         ${r.at}, ${r.at}, ${r.metadata}
  FROM ${reserved} AS p
  RETURNING "id"`,
);

const REFUND_EXCEEDS_AVAILABLE = 'refund_exceeds_available';

// A refund that does not fit writes nothing: with a key, its key stays free.
const RESERVE_AND_INSERT_REFUND = withKeyClaim(
  write<RefundValues & EventValues, typeof REFUND_EXCEEDS_AVAILABLE>({
    name: 'reserve-and-insert-refund',
    writes: [reserved, inserted, ...eventsWrittenAfter(inserted, paymentMetadataOf(reserved, 'id'))],
    refusals: [{ reason: REFUND_EXCEEDS_AVAILABLE, when: statementSql`NOT EXISTS (SELECT 1 FROM ${inserted})` }],
  }),
);

function refundValues(refund: RefundRequest, event: NewEvent): RefundValues & EventValues {
  return {
    refundId: refund.id,
    merchantId: refund.merchantId,
    paymentId: refund.paymentId,
    amount: refund.amount,
    reason: refund.reason,
    cryptoNote: refund.cryptoRefundDestinationNote,
    at: refund.createdAt,
    metadata: JSON.stringify(refund.metadata),
    ...eventParams(event),
  };
}

/**
 * Reserves the refund's amount on its payment, inserts it and its event; false (nothing written) when it does
 * not fit.
 */
export async function reserveAndInsertRefund(database: Db, refund: RefundRequest, event: NewEvent): Promise<boolean> {
  const result = await runWriteWithKey(database, RESERVE_AND_INSERT_REFUND, refundValues(refund, event), undefined);
  return !result.refused;
}

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
  const result = await runWriteClaimingKey(database, RESERVE_AND_INSERT_REFUND, refundValues(refund, event), claim);
  return 'refused' in result ? result.refused : result.outcome;
}

export async function findRefundRequest(database: Db, merchantId: string, id: string) {
  return database.refundRequest.findFirst({ where: { id, merchantId } });
}

export async function findRefundRequestCursor(database: Db, merchantId: string, id: string) {
  return database.refundRequest.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** The filters of GET /v1/refund-requests, each optional; `metadata` is one pair as jsonb text (metadataContaining). */
export type RefundFilters = { paymentId?: string; status?: RefundStatus; metadata?: string };

type RefundListValues = MaybeGiven<
  RefundFilters & { merchantId: string; afterCreatedAt: Date; afterId: string; take: number }
>;

const list = params<RefundListValues>({
  merchantId: 'text',
  paymentId: 'text',
  status: '"RefundStatus"',
  metadata: 'jsonb',
  afterCreatedAt: 'timestamptz',
  afterId: 'text',
  take: 'int',
});

// The row of LIST_REFUND_REQUESTS, alias by alias: checked, so a column renamed in the schema but not in the
// query fails here rather than showing as undefined in a /v1 body.
const refundRow = z.object({
  id: z.string(),
  merchantId: z.string(),
  paymentId: z.string(),
  amount: z.number().int(),
  currency: z.enum(CurrencyValues),
  status: z.enum(RefundStatusValues),
  reason: z.string().nullable(),
  cryptoRefundDestinationNote: z.string().nullable(),
  failureReason: z.string().nullable(),
  metadata: metadataField,
  processingAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
}) satisfies z.ZodType<RefundRequest>;

// each filter through its index: payment_id's, (merchant_id, status, created_at, id), and a GIN index of the
// metadata (prisma/migrations/20261127124300_metadata_filters)
const LIST_REFUND_REQUESTS = conditional<RefundListValues>(
  'list-refund-requests',
  {
    merchant: statementSql`"merchant_id" = ${list.merchantId}`,
    paymentId: statementSql`"payment_id" = ${list.paymentId}`,
    status: statementSql`"status" = ${list.status}`,
    metadata: statementSql`"metadata" @> ${list.metadata}`,
    after: statementSql`("created_at", "id") < (${list.afterCreatedAt}, ${list.afterId})`,
  },
  (where) => statementSql`
    SELECT "id", "merchant_id" AS "merchantId", "payment_id" AS "paymentId", "amount", "currency"::text AS "currency",
           "status"::text AS "status", "reason", "crypto_refund_destination_note" AS "cryptoRefundDestinationNote",
           "failure_reason" AS "failureReason", "metadata", "processing_at" AS "processingAt",
           "created_at" AS "createdAt", "updated_at" AS "updatedAt"
    FROM "refund_requests" WHERE ${where}
    ORDER BY "created_at" DESC, "id" DESC LIMIT ${list.take}`,
);

/** One page of GET /v1/refund-requests, newest first, after the `after` refund request when given. */
export async function findRefundRequestsPage(
  database: Db,
  merchantId: string,
  filters: RefundFilters,
  page: { after?: Cursor; take: number },
): Promise<RefundRequest[]> {
  const values: RefundListValues = {
    merchantId,
    paymentId: filters.paymentId,
    status: filters.status,
    metadata: filters.metadata,
    afterCreatedAt: page.after?.createdAt,
    afterId: page.after?.id,
    take: page.take,
  };
  return (await run(database, LIST_REFUND_REQUESTS(values), values)).map((row) => refundRow.parse(row));
}

// Canceling a requested refund and giving its amount back to the payment in one statement, with its
// refund_request.canceled event, the Idempotency-Key's claim with the answer too when the request sent one.
type ChangeValues = { refundId: string; merchantId: string; at: Date };

const change = params<ChangeValues>({ refundId: 'text', merchantId: 'text', at: 'timestamptz' });

const canceled = cte(
  'changed',
  statementSql`
  UPDATE "refund_requests" SET "status" = 'canceled', "updated_at" = ${change.at}
  FROM ${permitted}
  WHERE "refund_requests"."id" = ${change.refundId} AND "merchant_id" = ${change.merchantId} AND "status" = 'requested'
  RETURNING "payment_id", "amount"`,
);

const CANCEL_REFUND = withKeyClaim(
  write<ChangeValues & EventValues, 'refund_not_cancelable'>({
    name: 'cancel-refund',
    writes: [
      canceled,
      cte(
        'released',
        statementSql`
        UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount"
        FROM ${canceled} AS r WHERE "payments"."id" = r."payment_id"`,
      ),
      ...eventsWrittenAfter(canceled, paymentMetadataOf(canceled, 'payment_id')),
    ],
    refusals: [{ reason: 'refund_not_cancelable', when: statementSql`NOT EXISTS (SELECT 1 FROM ${canceled})` }],
  }),
);

/**
 * Cancels a requested refund and releases its reservation, with its event, in one statement; with `claim`,
 * claims the request's Idempotency-Key with the answer too. Returns whether it canceled (with `claim`: the
 * claim's outcome, or 'refund_not_cancelable' when nothing was written).
 */
export async function cancelRequestedRefund(
  database: Db,
  refund: { id: string; merchantId: string; at: Date },
  event: NewEvent,
  claim?: ClaimWithAnswer,
) {
  const values = { refundId: refund.id, merchantId: refund.merchantId, at: refund.at, ...eventParams(event) };
  return runClaimableChange(database, CANCEL_REFUND, values, claim);
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

/**
 * Up to `limit` requested refunds of merchants with the automatic policy, oldest first, each with its merchant's
 * clock offset: approved at that connection's time (approveRequestedRefund checks the state it leaves, so two
 * workers that find the same refund approve it once).
 */
export async function findRequestedRefundsOfAutomaticMerchants(database: Db, limit: number) {
  return database.refundRequest.findMany({
    where: { status: 'requested', merchant: { refundPolicy: 'automatic' } },
    include: { merchant: { select: { clockOffsetSeconds: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: limit,
  });
}

// The automatic policy's approval of one requested refund, with its refund_request.approved event, in one
// statement: written only when the refund was still requested and its merchant's policy still automatic.
const approvedAutomatically = cte(
  'changed',
  statementSql`
  UPDATE "refund_requests" AS r SET "status" = 'processing', "processing_at" = ${change.at}, "updated_at" = ${change.at}
  FROM ${permitted}
  WHERE r."id" = ${change.refundId} AND r."merchant_id" = ${change.merchantId} AND r."status" = 'requested'
    AND EXISTS (SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic')
  RETURNING r."payment_id"`,
);

const APPROVE_AUTOMATICALLY = withKeyClaim(
  write<ChangeValues & EventValues, 'refund_not_requested'>({
    name: 'approve-refund-automatically',
    writes: [
      approvedAutomatically,
      ...eventsWrittenAfter(approvedAutomatically, paymentMetadataOf(approvedAutomatically, 'payment_id')),
    ],
    refusals: [
      { reason: 'refund_not_requested', when: statementSql`NOT EXISTS (SELECT 1 FROM ${approvedAutomatically})` },
    ],
  }),
);

/** The automatic policy approves a requested refund, with its event; false when it was no longer requested. */
export async function approveRequestedRefundAutomatically(
  database: Db,
  refund: { id: string; merchantId: string; at: Date },
  event: NewEvent,
): Promise<boolean> {
  const values = { refundId: refund.id, merchantId: refund.merchantId, at: refund.at, ...eventParams(event) };
  return (await runClaimableChange(database, APPROVE_AUTOMATICALLY, values)) === true;
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
// and its events (refund_request.approved first for a requested one), the Idempotency-Key's claim with the
// answer too when the request sent one. `from` is the status the refund was read in: one that moved since
// (the worker approved it) writes nothing, so no event is written twice. The provider job
// locks a refund before finishing it, so this UPDATE waits for it and then finds the refund finished.
// failureReason is null to complete it.
type FinishValues = ChangeValues & { failureReason: string | null; from: 'requested' | 'processing' };

const finish = params<Pick<FinishValues, 'failureReason' | 'from'>>({ failureReason: 'text', from: 'text' });

const finishRefundNowAs = (outcome: 'completed' | 'failed') => {
  const finished = cte(
    'changed',
    statementSql`
    UPDATE "refund_requests" AS r SET "status" = '${raw(outcome)}', "failure_reason" = ${finish.failureReason},
      "processing_at" = coalesce(r."processing_at", ${change.at}), "updated_at" = ${change.at}
    FROM ${permitted}
    WHERE r."id" = ${change.refundId} AND r."merchant_id" = ${change.merchantId}
      AND r."status"::text = ${finish.from} AND (r."status" = 'processing' OR EXISTS (
        SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic'))
    RETURNING r."payment_id", r."amount"`,
  );
  const amounts =
    outcome === 'completed'
      ? raw(`"amount_refunded" = "payments"."amount_refunded" + r."amount"`)
      : raw(`"amount_reserved" = "payments"."amount_reserved" - r."amount"`);
  const finishedAmounts = cte(
    'finished_amounts',
    statementSql`UPDATE "payments" SET ${amounts} FROM ${finished} AS r WHERE "payments"."id" = r."payment_id"`,
  );
  return withKeyClaim(
    write<FinishValues & EventValues, 'refund_not_pending'>({
      name: `finish-refund-${outcome}`,
      writes: [finished, finishedAmounts, ...eventsWrittenAfter(finished, paymentMetadataOf(finished, 'payment_id'))],
      refusals: [{ reason: 'refund_not_pending', when: statementSql`NOT EXISTS (SELECT 1 FROM ${finished})` }],
    }),
  );
};

const FINISH_REFUND_NOW = { completed: finishRefundNowAs('completed'), failed: finishRefundNowAs('failed') };

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [
  ...[
    RESERVE_AND_INSERT_REFUND,
    CANCEL_REFUND,
    APPROVE_AUTOMATICALLY,
    FINISH_REFUND_NOW.completed,
    FINISH_REFUND_NOW.failed,
  ].flatMap((one) => [one.write.plain, one.statement]),
  LIST_REFUND_REQUESTS.every,
];

/**
 * Finishes a refund now (see FINISH_REFUND_NOW), with its events; with `claim`, claims the request's
 * Idempotency-Key with the answer too. Returns whether it finished (with `claim`: the claim's outcome, or
 * 'refund_not_pending' when nothing was written).
 */
export async function finishRefundInOneStatement(
  database: Db,
  refund: Pick<FinishValues, 'from' | 'failureReason'> & { id: string; merchantId: string; at: Date },
  events: NewEvent[],
  claim?: ClaimWithAnswer,
) {
  const statement = FINISH_REFUND_NOW[refund.failureReason === null ? 'completed' : 'failed'];
  const values = {
    refundId: refund.id,
    merchantId: refund.merchantId,
    at: refund.at,
    failureReason: refund.failureReason,
    from: refund.from,
    ...eventParams(...events),
  };
  return runClaimableChange(database, statement, values, claim);
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
