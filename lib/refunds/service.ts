import { errors } from '@/lib/api/errors';
import { NEWEST_FIRST, paginate } from '@/lib/api/pagination';
import { now } from '@/lib/clock';
import { inTransaction, sql, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import type { Prisma, RefundRequest, RefundStatus } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/ids';
import { amountRefundable } from '@/lib/payments/serialize';
import type { CreateRefundRequestInput } from './schemas';
import { serializeRefundRequest } from './serialize';

// Refund requests. The payment's amount_reserved is the sum of its active refunds (requested, processing,
// completed) and moves only through one conditional UPDATE, so no number of concurrent requests on any
// number of processes can reserve more than was paid. A CHECK constraint refuses what might slip through.

export async function createRefundRequest(database: Db, merchantId: string, input: CreateRefundRequestInput) {
  const payment = isId('payment', input.payment_id)
    ? await database.payment.findFirst({ where: { id: input.payment_id, merchantId } })
    : null;
  if (!payment) throw errors.resourceMissing(`No such payment: '${input.payment_id}'`, 'payment_id');

  const note = input.crypto_refund_destination_note;
  if (payment.paymentMethod === 'usdc' && note === undefined) {
    throw errors.parameterMissing(
      'USDC payments are never refunded to their sending address: describe how the customer’s own destination is verified in crypto_refund_destination_note',
      'crypto_refund_destination_note',
    );
  }
  if (payment.paymentMethod !== 'usdc' && note !== undefined) {
    throw errors.parameterInvalid(
      'crypto_refund_destination_note applies to USDC payments only',
      'crypto_refund_destination_note',
    );
  }
  if (payment.status !== 'succeeded') {
    throw errors.paymentNotRefundable(
      `Payment ${payment.id} is ${payment.status}; only succeeded payments can be refunded`,
    );
  }

  const at = now();
  const refund: RefundRequest = {
    id: newId('refundRequest'),
    merchantId,
    paymentId: payment.id,
    amount: input.amount,
    currency: payment.currency,
    status: 'requested',
    reason: input.reason ?? null,
    cryptoRefundDestinationNote: note ?? null,
    failureReason: null,
    processingAt: null,
    createdAt: at,
    updatedAt: at,
  };
  return inTransaction(database, async (tx) => {
    const [{ reserved }] = await sql<{ reserved: boolean }>(
      tx,
      'reserve-and-insert-refund',
      RESERVE_AND_INSERT_REFUND,
      [refund.id, merchantId, refund.paymentId, refund.amount, refund.reason, refund.cryptoRefundDestinationNote, at],
    );
    if (!reserved) {
      const current = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
      throw errors.refundExceedsAvailable(
        `Refund of ${input.amount} exceeds the ${amountRefundable(current)} still available to refund on payment ${payment.id}`,
        'amount',
      );
    }
    await emitEvent(tx, merchantId, 'refund_request.created', serializeRefundRequest(refund));
    return refund;
  });
}

// The reservation and the refund request in one statement: the request exists exactly when its amount was
// reserved, and the conditional UPDATE is what keeps concurrent refunds within the payment.
const RESERVE_AND_INSERT_REFUND = `
  WITH reserved AS (
    UPDATE "payments" SET "amount_reserved" = "amount_reserved" + $4::int
    WHERE "id" = $3 AND "status" = 'succeeded' AND "amount_reserved" + $4::int <= "amount"
    RETURNING "id", "currency"
  ), inserted AS (
    INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "reason",
      "crypto_refund_destination_note", "created_at", "updated_at")
    SELECT $1::text, $2::text, r."id", $4::int, r."currency", $5::text, $6::text, $7::timestamptz, $7::timestamptz
    FROM reserved AS r
    RETURNING "id"
  )
  SELECT EXISTS (SELECT 1 FROM inserted) AS "reserved"`;

export async function getRefundRequestOrThrow(database: Db, merchantId: string, id: string) {
  const refund = isId('refundRequest', id)
    ? await database.refundRequest.findFirst({ where: { id, merchantId } })
    : null;
  if (!refund) throw errors.resourceMissing(`No such refund request: '${id}'`, 'id');
  return refund;
}

export async function listRefundRequests(
  database: Db,
  merchantId: string,
  query: { limit: number; starting_after?: string; payment_id?: string; status?: RefundStatus },
) {
  const base: Prisma.RefundRequestWhereInput = {
    merchantId,
    ...(query.payment_id !== undefined ? { paymentId: query.payment_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) =>
      database.refundRequest.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } }),
    findPage: ({ where, take }) =>
      database.refundRequest.findMany({ where: { AND: [base, where] }, orderBy: NEWEST_FIRST, take }),
    serialize: serializeRefundRequest,
  });
}

/**
 * Moves a refund out of `requested` (cancel, decline) or through (approve), checking the state in the
 * UPDATE itself. Ending states give the reserved amount back to the payment in the same transaction.
 */
async function leaveRequested(
  database: Db,
  merchantId: string,
  id: string,
  to: Extract<RefundStatus, 'canceled' | 'declined' | 'processing'>,
): Promise<RefundRequest> {
  return inTransaction(database, async (tx) => {
    const refund = await getRefundRequestOrThrow(tx, merchantId, id);
    if (to !== 'canceled') await assertManualRefundPolicy(tx, merchantId);
    const at = now();
    const { count } = await tx.refundRequest.updateMany({
      where: { id, merchantId, status: 'requested' },
      data: { status: to, updatedAt: at, ...(to === 'processing' ? { processingAt: at } : {}) },
    });
    if (count !== 1) {
      throw errors.refundNotCancelable(
        `Refund request ${id} is ${refund.status}; only a requested refund can be ${to === 'processing' ? 'approved' : to}`,
      );
    }
    if (to !== 'processing') await releaseReservation(tx, refund.paymentId, refund.amount);
    return tx.refundRequest.findUniqueOrThrow({ where: { id } });
  });
}

export const cancelRefundRequest = (database: Db, merchantId: string, id: string) =>
  leaveRequested(database, merchantId, id, 'canceled');
/** Manual policy: a dashboard user declines. */
export const declineRefundRequest = (database: Db, merchantId: string, id: string) =>
  leaveRequested(database, merchantId, id, 'declined');
/** Manual policy: a dashboard user authorizes; the refund goes to the provider. */
export const approveRefundRequest = (database: Db, merchantId: string, id: string) =>
  leaveRequested(database, merchantId, id, 'processing');

/**
 * Approve and Decline are a person's decisions, which the automatic policy gives to the service: its
 * worker authorizes every requested refund. (A policy switched at the same moment is harmless: the refund
 * still leaves `requested` once, by whichever UPDATE comes first.)
 */
async function assertManualRefundPolicy(tx: Db, merchantId: string): Promise<void> {
  const { refundPolicy } = await tx.merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: { refundPolicy: true },
  });
  if (refundPolicy !== 'manual') {
    throw errors.refundNotCancelable(
      'Approve and Decline are for the manual refund policy; with automatic refunds the service approves them itself.',
    );
  }
}

async function releaseReservation(tx: Db, paymentId: string, amount: number): Promise<void> {
  await tx.$executeRaw`UPDATE "payments" SET "amount_reserved" = "amount_reserved" - ${amount} WHERE "id" = ${paymentId}`;
}

/** Automatic policy: the service authorizes requested refunds and submits them to the sandbox provider. */
export async function authorizeAutomaticRefunds(database: Db): Promise<number> {
  return database.$executeRaw`
    UPDATE "refund_requests" AS r SET "status" = 'processing', "processing_at" = now(), "updated_at" = now()
    FROM "merchants" AS m
    WHERE r."merchant_id" = m."id" AND m."refund_policy" = 'automatic' AND r."status" = 'requested'`;
}

/**
 * The sandbox provider: a refund that has been processing for `delayMs` completes, or fails when its
 * payment was made with test card 4000 0000 0000 5126. Claimed with SKIP LOCKED so workers can share.
 */
export async function finishProcessingRefunds(database: Db, delayMs: number, batchSize = 50): Promise<number> {
  return inTransaction(database, async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "refund_requests"
      WHERE "status" = 'processing' AND "processing_at" <= now() - make_interval(secs => ${delayMs / 1000})
      ORDER BY "processing_at" LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED`;
    for (const { id } of due) {
      const refund = await tx.refundRequest.findUniqueOrThrow({ where: { id }, include: { payment: true } });
      const fails = refund.payment.refundsFailInSandbox;
      const updated = await tx.refundRequest.update({
        where: { id },
        data: fails
          ? {
              status: 'failed',
              failureReason: 'The card issuer refused the refund (sandbox test card 4000 0000 0000 5126)',
              updatedAt: now(),
            }
          : { status: 'completed', updatedAt: now() },
      });
      if (fails) {
        await releaseReservation(tx, refund.paymentId, refund.amount);
        await emitEvent(tx, refund.merchantId, 'refund.failed', serializeRefundRequest(updated));
      } else {
        await tx.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" + ${refund.amount} WHERE "id" = ${refund.paymentId}`;
        await emitEvent(tx, refund.merchantId, 'refund.completed', serializeRefundRequest(updated));
      }
    }
    return due.length;
  });
}
