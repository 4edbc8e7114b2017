import { metadataContaining, type Metadata, withoutEmptyValues } from '@/lib/core/metadata';
import { errors, pageRefusals } from '@/lib/core/errors';
import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import { paginate } from '@/lib/core/pagination';
import type { MerchantContexts, RequestContext } from '@/lib/core/context';
import { inTransaction, type Db } from '@/lib/db';
import { emitEvent, newEvent } from '@/lib/events/service';
import type { Prisma, RefundRequest, RefundStatus } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/core/ids';
import * as merchants from '@/lib/merchants/repository';
import { addPaymentRefunded, findPayment, releasePaymentReservation } from '@/lib/payments/repository';
import { findPaymentFacts } from '@/lib/payments/facts';
import { amountRefundable } from '@/lib/payments/serialize';
import {
  approveRequestedRefundAutomatically,
  cancelRequestedRefund,
  claimDueRefunds,
  finishRefundInOneStatement,
  findRefundRequest,
  findRefundRequestCursor,
  findRefundRequestsPage,
  findRefundWithPayment,
  findRequestedRefundsOfAutomaticMerchants,
  markRefundCompleted,
  markRefundFailed,
  moveRequestedRefund,
  reserveAndInsertRefund,
  reserveAndInsertRefundClaimingKey,
} from './repository';
import type { CreateRefundRequestInput } from './schemas';
import { amountLeftMessage, NOTE_USDC_ONLY, PAYMENT_NOT_FOUND, USDC_NOTE_REQUIRED } from './messages';
import { refundEventObject, serializeRefundRequest } from './serialize';

// Refund requests. The payment's amount_reserved is the sum of its active refunds (requested, processing,
// completed) and moves only through one conditional UPDATE, so no number of concurrent requests on any
// number of processes can reserve more than was paid. A CHECK constraint refuses what might slip through.

/** With `claimKey`, the request's Idempotency-Key is claimed by the write: a replay when another request holds it. */
type KeyOption = { claimKey?: ClaimKey<RefundRequest> };

export function createRefundRequest(context: RequestContext, input: CreateRefundRequestInput): Promise<RefundRequest>;
export function createRefundRequest(
  context: RequestContext,
  input: CreateRefundRequestInput,
  options: KeyOption,
): Promise<Claimed<RefundRequest>>;
export async function createRefundRequest(
  context: RequestContext,
  input: CreateRefundRequestInput,
  options: KeyOption = {},
): Promise<Claimed<RefundRequest>> {
  const { db: database, merchantId, now: at } = context;
  // its facts, which never change; its amounts are the reservation's own statement's to check
  const payment = await findPaymentFacts(database, merchantId, input.payment_id);
  if (!payment) throw errors.resourceMissing(`No such payment: '${input.payment_id}'`, 'payment_id', PAYMENT_NOT_FOUND);

  const note = input.crypto_refund_destination_note;
  if (payment.paymentMethod === 'usdc' && note === undefined) {
    throw errors.parameterMissing(
      'USDC payments are never refunded to their sending address: describe how the customer’s own destination is verified in crypto_refund_destination_note',
      'crypto_refund_destination_note',
      USDC_NOTE_REQUIRED,
    );
  }
  if (payment.paymentMethod !== 'usdc' && note !== undefined) {
    throw errors.parameterInvalid(
      'crypto_refund_destination_note applies to USDC payments only',
      'crypto_refund_destination_note',
      NOTE_USDC_ONLY,
    );
  }
  if (payment.status !== 'succeeded') {
    throw errors.paymentNotRefundable(
      `Payment ${payment.id} is ${payment.status}; only succeeded payments can be refunded`,
      undefined,
      `This payment is ${payment.status}; only succeeded payments can be refunded.`,
    );
  }

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
    metadata: withoutEmptyValues(input.metadata),
    processingAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const event = newEvent(merchantId, 'refund_request.created', serializeRefundRequest(refund));
  const exceedsAvailable = async () => {
    const current = await findPayment(database, merchantId, payment.id);
    // gone since its facts were remembered (its merchant deleted)
    if (!current) return errors.resourceMissing(`No such payment: '${payment.id}'`, 'payment_id', PAYMENT_NOT_FOUND);
    const left = amountRefundable(current);
    return errors.refundExceedsAvailable(
      `Refund of ${input.amount} exceeds the ${left} still available to refund on payment ${payment.id}`,
      'amount',
      amountLeftMessage(left, current.currency),
    );
  };
  if (options.claimKey) {
    const claim = options.claimKey(refund);
    const outcome = await reserveAndInsertRefundClaimingKey(database, refund, event, claim);
    if (outcome === 'refund_exceeds_available') throw await exceedsAvailable();
    const replay = settleClaim(outcome, claim);
    if (replay) return replay;
  } else if (!(await reserveAndInsertRefund(database, refund, event))) {
    throw await exceedsAvailable();
  }
  return refund;
}

export async function getRefundRequestOrThrow(context: RequestContext, id: string) {
  const { db: database, merchantId } = context;
  const refund = isId('refundRequest', id) ? await findRefundRequest(database, merchantId, id) : null;
  if (!refund)
    throw errors.resourceMissing(`No such refund request: '${id}'`, 'id', 'This refund request was not found.');
  return refund;
}

export async function listRefundRequests(
  context: RequestContext,
  query: { limit: number; starting_after?: string; payment_id?: string; status?: RefundStatus; metadata?: Metadata },
) {
  const { db: database, merchantId } = context;
  const filters = { paymentId: query.payment_id, status: query.status, metadata: metadataContaining(query.metadata) };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findRefundRequestCursor(database, merchantId, id),
    findPage: ({ after, take }) => findRefundRequestsPage(database, merchantId, filters, { after, take }),
  });
}

/**
 * A person's decision under the manual policy: out of `requested` (decline) or through it (approve), checking
 * the state in the UPDATE itself. A declined refund gives its reserved amount back, and either writes its
 * event, in the same transaction.
 */
async function decideRequested(
  context: RequestContext,
  id: string,
  to: Extract<RefundStatus, 'declined' | 'processing'>,
): Promise<RefundRequest> {
  const { merchantId } = context;
  return inTransaction(context.db, async (tx) => {
    const inTx = { ...context, db: tx };
    const refund = await getRefundRequestOrThrow(inTx, id);
    await assertManualRefundPolicy(tx, merchantId);
    if (!(await moveRequestedRefund(tx, merchantId, id, to, context.now))) {
      // worded from the refund as it is now: it may have moved since it was read
      const current = await getRefundRequestOrThrow(inTx, id);
      throw notRequested(current, to === 'processing' ? 'approved' : to);
    }
    if (to === 'declined') await releasePaymentReservation(tx, refund.paymentId, refund.amount);
    const { payment, ...decided } = await findRefundWithPayment(tx, id);
    const type = to === 'declined' ? 'refund_request.declined' : 'refund_request.approved';
    await emitEvent(tx, merchantId, type, refundEventObject(decided, payment.metadata));
    return decided;
  });
}

/**
 * Withdraws a requested refund: its amount is available again. One statement, its event and the key's claim
 * included.
 */
export function cancelRefundRequest(context: RequestContext, id: string): Promise<RefundRequest>;
export function cancelRefundRequest(
  context: RequestContext,
  id: string,
  options: KeyOption,
): Promise<Claimed<RefundRequest>>;
export async function cancelRefundRequest(
  context: RequestContext,
  id: string,
  options: KeyOption = {},
): Promise<Claimed<RefundRequest>> {
  const { db: database, merchantId, now: at } = context;
  const refund = await getRefundRequestOrThrow(context, id);
  const canceled: RefundRequest = { ...refund, status: 'canceled', updatedAt: at };
  const claim = options.claimKey?.(canceled);
  // its payment's metadata is merged in by the statement (lib/refunds/repository.ts)
  const event = newEvent(merchantId, 'refund_request.canceled', serializeRefundRequest(canceled));
  const outcome = await cancelRequestedRefund(database, { id, merchantId, at }, event, claim);
  if (outcome === false || outcome === 'refund_not_cancelable') {
    // worded from the refund as it is now: it may have moved since it was read
    throw notRequested(await getRefundRequestOrThrow(context, id), 'canceled');
  }
  if (claim && outcome !== true) return settleClaim(outcome, claim) ?? canceled;
  return canceled;
}
function notRequested(refund: RefundRequest, change: 'approved' | 'declined' | 'canceled') {
  return errors.refundNotCancelable(
    `Refund request ${refund.id} is ${refund.status}; only a requested refund can be ${change}`,
    undefined,
    `This refund is already ${refund.status}; only a requested refund can be ${change}.`,
  );
}

/** Manual policy: a dashboard user declines. */
export const declineRefundRequest = (context: RequestContext, id: string) => decideRequested(context, id, 'declined');
/** Manual policy: a dashboard user authorizes; the refund goes to the provider. */
export const approveRefundRequest = (context: RequestContext, id: string) => decideRequested(context, id, 'processing');

/**
 * Approve and Decline are a person's decisions, which the automatic policy gives to the service: its
 * worker authorizes every requested refund. (A policy switched at the same moment is harmless: the refund
 * still leaves `requested` once, by whichever UPDATE comes first.) The policy is read in this transaction,
 * never from the in-memory settings of lib/merchants/settings.ts: a person's decision follows the policy
 * as it is now. Its refusal has a code of its own (refund_policy_not_manual): the refund may well be
 * requested still, which refund_not_cancelable would deny.
 */
async function assertManualRefundPolicy(tx: Db, merchantId: string): Promise<void> {
  if ((await merchants.findMerchantRefundPolicy(tx, merchantId)) !== 'manual') {
    const why =
      'Approve and Decline are for the manual refund policy; with automatic refunds the service approves them itself.';
    throw pageRefusals.refundPolicyNotManual(why, undefined, why);
  }
}

const AUTHORIZE_BATCH = 50;

/**
 * Automatic policy: the service authorizes requested refunds and submits them to the sandbox provider, each
 * with its refund_request.approved event, at its connection's time (its merchant's context). Returns how many it
 * authorized.
 */
export async function authorizeAutomaticRefunds(contexts: MerchantContexts): Promise<number> {
  const database = contexts.db;
  let authorized = 0;
  for (;;) {
    const requested = await findRequestedRefundsOfAutomaticMerchants(database, AUTHORIZE_BATCH);
    let approvedOfBatch = 0;
    for (const { merchant, ...refund } of requested) {
      const { db: merchantDb, now: at } = contexts.of(refund.merchantId, merchant.clockOffsetSeconds);
      const processing: RefundRequest = { ...refund, status: 'processing', processingAt: at, updatedAt: at };
      // its payment's metadata is merged in by the statement (lib/refunds/repository.ts)
      const event = newEvent(refund.merchantId, 'refund_request.approved', serializeRefundRequest(processing));
      const approved = await approveRequestedRefundAutomatically(
        merchantDb,
        { id: refund.id, merchantId: refund.merchantId, at },
        event,
      );
      if (approved) approvedOfBatch += 1;
    }
    authorized += approvedOfBatch;
    // a full batch of which none could be approved would be found again as it is: the next tick tries again
    if (requested.length < AUTHORIZE_BATCH || approvedOfBatch === 0) return authorized;
  }
}

const SANDBOX_REFUND_REFUSED = 'The card issuer refused the refund (sandbox test card 4000 0000 0000 5126)';
/** The fail test helper's reason when its body gives none. */
export const TEST_HELPER_FAILURE_REASON = 'Failed by the test helper';

/**
 * The sandbox provider: a refund that has been processing for `delayMs` completes, or fails when its
 * payment was made with test card 4000 0000 0000 5126. Claimed with SKIP LOCKED so workers can share.
 */
export async function finishProcessingRefunds(
  contexts: MerchantContexts,
  delayMs: number,
  batchSize = 50,
): Promise<number> {
  const database = contexts.db;
  // One refund a transaction. A transaction that finished several locked their payments in the order the
  // refunds came due, and two workers doing so in different orders deadlocked (seen in the scale test's logs).
  let finished = 0;
  while (finished < batchSize) {
    const finishedOne = await inTransaction(database, async (tx) => {
      const [due] = await claimDueRefunds(tx, delayMs, 1);
      if (!due) return false;
      const { payment } = await findRefundWithPayment(tx, due.id);
      const outcome = payment.refundsFailInSandbox
        ? { failureReason: SANDBOX_REFUND_REFUSED }
        : { completed: true as const };
      // finished at its connection's time (lib/test-clocks/service.ts)
      const { now: at } = contexts.of(payment.merchantId, due.clockOffsetSeconds);
      await finishClaimedRefund(tx, due.id, outcome, payment.metadata, at);
      return true;
    });
    if (!finishedOne) break;
    finished += 1;
  }
  return finished;
}

type ProviderOutcome = { completed: true } | { failureReason: string };

/** What the provider does to a claimed refund: its amounts, its status and its event, in the caller's transaction. */
async function finishClaimedRefund(
  tx: Db,
  id: string,
  outcome: ProviderOutcome,
  paymentMetadata: Prisma.JsonValue,
  at: Date,
): Promise<RefundRequest> {
  if ('failureReason' in outcome) {
    const failed = await markRefundFailed(tx, id, outcome.failureReason, at);
    await releasePaymentReservation(tx, failed.paymentId, failed.amount);
    await emitEvent(tx, failed.merchantId, 'refund.failed', refundEventObject(failed, paymentMetadata));
    return failed;
  }
  const completed = await markRefundCompleted(tx, id, at);
  await addPaymentRefunded(tx, completed.paymentId, completed.amount);
  await emitEvent(tx, completed.merchantId, 'refund.completed', refundEventObject(completed, paymentMetadata));
  return completed;
}

/**
 * The test helpers: finish a refund now, exactly as the provider would, instead of waiting for it. A processing
 * refund, or a requested one under the automatic policy (authorized on the spot); else 409 refund_not_pending.
 * The refund is read first, for the answer and the event; the change, its amounts, its event and the key's
 * claim are then one statement (finishRefundInOneStatement).
 */
export function finishRefundNow(context: RequestContext, id: string, outcome: ProviderOutcome): Promise<RefundRequest>;
export function finishRefundNow(
  context: RequestContext,
  id: string,
  outcome: ProviderOutcome,
  options: KeyOption,
): Promise<Claimed<RefundRequest>>;
export async function finishRefundNow(
  context: RequestContext,
  id: string,
  outcome: ProviderOutcome,
  options: KeyOption = {},
): Promise<Claimed<RefundRequest>> {
  let refund = await getRefundRequestOrThrow(context, id);
  // a requested refund the worker approves meanwhile is tried once more, as the processing refund it now is
  for (let attempt = 0; ; attempt += 1) {
    const finished = await finishReadRefundNow(context, refund, outcome, options);
    if (finished) return finished;
    const current = await getRefundRequestOrThrow(context, id);
    if (attempt === 0 && refund.status === 'requested' && current.status === 'processing') {
      refund = current;
      continue;
    }
    // worded from the refund as it is now: it may have moved since it was read
    throw errors.refundNotPending(
      `Refund request ${id} is ${current.status}; only a processing refund, or a requested one under the automatic policy, can be finished`,
      undefined,
      `This refund is ${current.status}; only a refund being processed can be finished.`,
    );
  }
}

/** finishRefundNow of the refund as it was read; null when it was not in that status any more. */
async function finishReadRefundNow(
  context: RequestContext,
  refund: RefundRequest,
  outcome: ProviderOutcome,
  options: KeyOption,
): Promise<Claimed<RefundRequest> | null> {
  const { id, merchantId } = refund;
  const { db: database, now: at } = context;
  const from = refund.status === 'requested' ? 'requested' : 'processing';
  const failureReason = 'failureReason' in outcome ? outcome.failureReason : null;
  const processing: RefundRequest = {
    ...refund,
    status: 'processing',
    processingAt: refund.processingAt ?? at,
    updatedAt: at,
  };
  const finished: RefundRequest = {
    ...processing,
    status: failureReason === null ? 'completed' : 'failed',
    failureReason,
  };
  const type = finished.status === 'completed' ? 'refund.completed' : 'refund.failed';
  // authorized on the spot: its approval is a transition of its own, with its event; the statement merges in
  // the payment's metadata (lib/refunds/repository.ts)
  const events = [
    ...(from === 'requested'
      ? [newEvent(merchantId, 'refund_request.approved', serializeRefundRequest(processing))]
      : []),
    newEvent(merchantId, type, serializeRefundRequest(finished)),
  ];
  const claim = options.claimKey?.(finished);
  const result = await finishRefundInOneStatement(database, { id, merchantId, at, failureReason, from }, events, claim);
  if (result === false || result === 'refund_not_pending') return null;
  if (claim && result !== true) return settleClaim(result, claim) ?? finished;
  return finished;
}
