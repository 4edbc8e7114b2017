import { errors } from '@/lib/core/errors';
import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import type { MerchantContexts, RequestContext } from '@/lib/core/context';
import type { Db } from '@/lib/db';
import { newEvent } from '@/lib/events/service';
import type { Payment } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/core/money';
import { authorizationExpiresAt } from './authorization';
import { findAuthorizationGuess, forgetAuthorization, rememberPayment } from './facts';
import {
  AUTHORIZATION_DAYS,
  cancelPaymentInOneStatement,
  capturePaymentInOneStatement,
  type CancellationReason,
  findDueAuthorizations,
  findPayment,
} from './repository';
import type { CapturePaymentInput } from './schemas';
import { serializePayment } from './serialize';
import { paymentMissing } from './service';

// Authorize now, capture later: an authorization (requires_capture) is captured once, in full or in part (the rest
// released), or canceled, by the merchant or by the worker after AUTHORIZATION_DAYS. Each is one statement that
// moves the payment out of requires_capture (lib/payments/repository.ts), so of two at once exactly one wins. The
// answer and the event are built from the payment as this process last saw it (lib/payments/facts.ts), read first
// when it saw none; the statement checks again what that decided, and a refusal reads the payment as it is now.

type Options = { claimKey?: ClaimKey<Payment> };

/** Captures `amount_to_capture` (default: all) of an authorization; 409 payment_not_capturable otherwise. */
export function capturePayment(context: RequestContext, id: string, input: CapturePaymentInput): Promise<Payment>;
export function capturePayment(
  context: RequestContext,
  id: string,
  input: CapturePaymentInput,
  options: Options,
): Promise<Claimed<Payment>>;
export async function capturePayment(
  context: RequestContext,
  id: string,
  input: CapturePaymentInput,
  options: Options = {},
): Promise<Claimed<Payment>> {
  const { db: database, merchantId, now: at } = context;
  const payment = await authorizationOrThrow(database, merchantId, id);
  const amountToCapture = input.amount_to_capture ?? payment.amount;
  const refusal = captureRefusal(payment, amountToCapture, at);
  if (refusal) throw refusal;
  const captured: Payment = { ...payment, status: 'succeeded', amountCaptured: amountToCapture };
  const event = newEvent(merchantId, 'payment.succeeded', serializePayment(captured));
  const claim = options.claimKey?.(captured);
  const outcome = await capturePaymentInOneStatement(
    database,
    { paymentId: id, merchantId, at, amountToCapture },
    event,
    claim,
  );
  if (outcome === false || outcome === 'payment_not_capturable') {
    const current = await currentOf(database, payment);
    throw captureRefusal(current, amountToCapture, at) ?? notCapturable(current, at);
  }
  const replay = claim && outcome !== true ? settleClaim(outcome, claim) : undefined;
  if (replay) return replay;
  rememberPayment(captured);
  return captured;
}

/** Cancels an authorization at the merchant's request, freeing its order; 409 payment_not_cancelable otherwise. */
export function cancelPayment(context: RequestContext, id: string): Promise<Payment>;
export function cancelPayment(context: RequestContext, id: string, options: Options): Promise<Claimed<Payment>>;
export async function cancelPayment(
  context: RequestContext,
  id: string,
  options: Options = {},
): Promise<Claimed<Payment>> {
  const { db: database, merchantId, now: at } = context;
  const payment = await authorizationOrThrow(database, merchantId, id);
  // the rule the statement keeps too (its UPDATE's status = 'requires_capture'): a person's message when this
  // process already knows, the same refusal from the row as it is now when only the statement found out
  if (payment.status !== 'requires_capture') throw notCancelable(payment);
  const canceled = canceledAs(payment, 'requested_by_merchant', at);
  const event = newEvent(merchantId, 'payment.canceled', serializePayment(canceled));
  const claim = options.claimKey?.(canceled);
  const change = { paymentId: id, merchantId, at, reason: 'requested_by_merchant' as const };
  const outcome = await cancelPaymentInOneStatement(database, change, event, claim);
  if (outcome === false || outcome === 'payment_not_cancelable')
    throw notCancelable(await currentOf(database, payment));
  const replay = claim && outcome !== true ? settleClaim(outcome, claim) : undefined;
  if (replay) return replay;
  rememberPayment(canceled);
  return canceled;
}

/**
 * The worker's sweep: every authorization AUTHORIZATION_DAYS old on its connection's clock is canceled as
 * expired, with its event, each in its own statement (a capture that came first leaves it alone).
 */
export async function cancelExpiredAuthorizations(contexts: MerchantContexts, batchSize = 50): Promise<number> {
  const due = await findDueAuthorizations(contexts.db, batchSize);
  let canceled = 0;
  for (const one of due) {
    if (await cancelExpiredAuthorization(contexts.of(one.merchantId, one.clockOffsetSeconds), one.id)) canceled += 1;
  }
  return canceled;
}

async function cancelExpiredAuthorization(context: RequestContext, id: string): Promise<boolean> {
  const { db: database, merchantId, now: at } = context;
  const payment = await findPayment(database, merchantId, id);
  if (!payment || payment.status !== 'requires_capture') return false;
  const event = newEvent(merchantId, 'payment.canceled', serializePayment(canceledAs(payment, 'expired', at)));
  const change = { paymentId: id, merchantId, at, reason: 'expired' as const };
  return (await cancelPaymentInOneStatement(database, change, event)) === true;
}

function canceledAs(payment: Payment, reason: CancellationReason, at: Date): Payment {
  return { ...payment, status: 'canceled', canceledAt: at, cancellationReason: reason };
}

/** Whether an authorization's days have run out by `at`, whether or not the sweep has canceled it yet. */
function authorizationLapsed(payment: Payment, at: Date): boolean {
  return authorizationExpiresAt(payment.createdAt).getTime() <= at.getTime();
}

async function authorizationOrThrow(database: Db, merchantId: string, id: string): Promise<Payment> {
  const payment = await findAuthorizationGuess(database, merchantId, id);
  if (!payment) throw paymentMissing(id);
  return payment;
}

/** The payment as it is now, to word a refusal: it may have moved since it was read or remembered. */
async function currentOf(database: Db, payment: Payment): Promise<Payment> {
  forgetAuthorization(payment.id);
  const current = await findPayment(database, payment.merchantId, payment.id);
  if (current) rememberPayment(current);
  return current ?? payment;
}

/**
 * Why `amountToCapture` of this payment cannot be captured at `at`, or null when it can: the rules the capture
 * statement keeps too (lib/payments/repository.ts, `captured`), checked here on the payment as this process knows
 * it, for a person's message, and again on the payment as it is now when only the statement refused, so either
 * path answers with the same code. The amount, which never changes, comes before the state (400 before 409).
 */
function captureRefusal(payment: Payment, amountToCapture: number, at: Date) {
  if (amountToCapture > payment.amount)
    return errors.parameterInvalid(
      `amount_to_capture ${amountToCapture} exceeds the ${payment.amount} authorized on payment ${payment.id}`,
      'amount_to_capture',
      `You can capture at most ${formatMoney(payment.amount, payment.currency)}.`,
    );
  if (payment.status !== 'requires_capture' || authorizationLapsed(payment, at)) return notCapturable(payment, at);
  return null;
}

function notCapturable(payment: Payment, at: Date) {
  const lapsed = payment.status === 'requires_capture' && authorizationLapsed(payment, at);
  const why = lapsed ? `its authorization expired after ${AUTHORIZATION_DAYS} days` : `it is ${payment.status}`;
  return errors.paymentNotCapturable(
    `Payment ${payment.id} cannot be captured: ${why}; only an authorization (requires_capture) can be`,
    undefined,
    whyNotCapturable(payment),
  );
}

function notCancelable(payment: Payment) {
  return errors.paymentNotCancelable(
    `Payment ${payment.id} is ${payment.status}; only an authorization (requires_capture) can be canceled`,
    undefined,
    whyNotCancelable(payment),
  );
}

/** For a person: why a capture was refused, from where the payment is now (it moved since it was shown, or ran out of days). */
function whyNotCapturable(payment: Payment): string {
  if (payment.status === 'succeeded')
    return `This payment was already captured (${formatMoney(payment.amountCaptured, payment.currency)}), from another tab or over the API.`;
  if (payment.status === 'canceled' && payment.cancellationReason === 'requested_by_merchant')
    return 'This authorization was canceled meanwhile, so there is nothing to capture.';
  if (payment.status === 'canceled' || payment.status === 'requires_capture')
    return `The authorization expired meanwhile (it holds for ${AUTHORIZATION_DAYS} days) and its hold is released, so nothing can be captured.`;
  return `This payment ${payment.status === 'failed' ? 'failed' : 'is not an authorization'}, so there is nothing to capture.`;
}

function whyNotCancelable(payment: Payment): string {
  if (payment.status === 'succeeded')
    return 'This payment was captured meanwhile, so its authorization can no longer be canceled. Refund it instead.';
  if (payment.status === 'canceled')
    return payment.cancellationReason === 'expired'
      ? `The authorization already expired (it holds for ${AUTHORIZATION_DAYS} days) and its hold is released.`
      : 'This authorization was already canceled.';
  return `This payment ${payment.status === 'failed' ? 'failed' : 'is not an authorization'}, so there is no hold to cancel.`;
}
