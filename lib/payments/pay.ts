import { randomBytes } from 'node:crypto';
import { errors } from '@/lib/core/errors';
import { type Claimed, type ClaimKey, settleClaim } from '@/lib/idempotency/service';
import { metadataOf } from '@/lib/core/metadata';
import { findSessionForPayment } from '@/lib/checkout-sessions/repository';
import {
  effectiveStatus,
  serializeCheckoutSession,
  type CheckoutSessionWithItems,
} from '@/lib/checkout-sessions/serialize';
import type { MerchantContexts, RequestContext } from '@/lib/core/context';
import { newEvent } from '@/lib/events/service';
import type { Payment, PaymentMethod, Prisma } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/core/ids';
import { cardBrand, cardOutcome, isExpired, normalizeCardNumber, passesLuhn } from './cards';
import { rememberPayment } from './facts';
import { recordPayment } from './repository';
import type { PayInput } from './schemas';
import { serializePayment } from './serialize';

// Paying a checkout session: the one code path of the hosted page and the test-helper endpoint.

type Attempt = {
  method: PaymentMethod;
  details: Prisma.JsonObject;
  outcome: { status: 'succeeded'; refundsFail: boolean } | { status: 'failed'; failureCode: string };
};

/** Checks what can be checked without the session, so bad input never reaches the database. */
function simulateAttempt(input: PayInput): Attempt {
  if (input.payment_method === 'card') {
    const digits = normalizeCardNumber(input.card_number);
    if (!passesLuhn(digits))
      throw errors.parameterInvalid('Your card number is invalid', 'card_number', 'Your card number is invalid.');
    // only brand, last4 and expiry are ever kept; the keys in the order PostgreSQL's jsonb keeps them (shorter
    // first), so the answer that pays is byte for byte what a later GET of the payment reads back
    const details = {
      card: {
        brand: cardBrand(digits),
        last4: digits.slice(-4),
        exp_year: input.exp_year ?? null,
        exp_month: input.exp_month ?? null,
      },
    };
    return { method: 'card', details, outcome: cardOutcome(digits) };
  }
  if (input.payment_method === 'usdc') {
    const details = {
      usdc: {
        network: 'ethereum',
        payer_address: `0x${randomBytes(20).toString('hex')}`,
        transaction_hash: `0x${randomBytes(32).toString('hex')}`,
      },
    };
    return { method: 'usdc', details, outcome: { status: 'succeeded', refundsFail: false } };
  }
  const details = { interac: { bank: input.bank ?? null, email_masked: input.email ? maskEmail(input.email) : null } };
  const outcome =
    input.outcome === 'approve'
      ? ({ status: 'succeeded', refundsFail: false } as const)
      : ({ status: 'failed', failureCode: 'interac_declined' } as const);
  return { method: 'interac', details, outcome };
}

/** A card past its expiry month by `at` (the connection's time) is refused. */
function assertCardUnexpired(input: PayInput, at: Date): void {
  if (input.payment_method !== 'card' || input.exp_month === undefined || input.exp_year === undefined) return;
  if (isExpired(input.exp_month, input.exp_year, at))
    throw errors.parameterInvalid('Your card has expired', 'exp_year', 'Your card has expired.');
}

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/**
 * The hosted page's refusal once a session has seen `declineLimit` declined payments: every decline is a
 * failed payment, an event and a webhook to the merchant, and an anonymous visitor could otherwise test
 * stolen card numbers, or flood the merchant's webhooks, without end. Never reaches /v1.
 */
export class DeclineLimitReached extends Error {
  constructor(readonly sessionId: string) {
    super(`Checkout session ${sessionId} has had too many declined payments`);
    this.name = 'DeclineLimitReached';
  }
}

export type PayOptions = {
  declineLimit?: number;
  /** the e-mail the customer gave on the hosted page; without one, the payment takes the session's */
  customerEmail?: string;
};

/**
 * Who pays: over /v1, the API key's merchant, in its request's context; on the hosted page, whoever has the
 * session's address, for the session's merchant, whose context is built once the session is read.
 */
export type Payer = RequestContext | MerchantContexts;

/** The payment made, and the session as it is after it (complete, or still open after a decline). */
export type PaidSession = { payment: Payment; session: CheckoutSessionWithItems };

/**
 * Pays a session: the session is read, the attempt decided and its answer made, then it is written in one
 * statement (recordPayment) that checks again, on the rows as they are, that the session is still open and its
 * order unpaid: double clicks, two tabs and two sessions of one order all pay once, and a partial unique index
 * backs the order rule. A decline records a failed payment and leaves the session open. With `claimKey`, the
 * request's Idempotency-Key is claimed in that statement, and a replay returned when another request holds it.
 */
export function payCheckoutSession(
  context: Payer,
  sessionId: string,
  input: PayInput,
  options?: PayOptions,
): Promise<PaidSession>;
export function payCheckoutSession(
  context: Payer,
  sessionId: string,
  input: PayInput,
  options: PayOptions & { claimKey?: ClaimKey<Payment> },
): Promise<Claimed<PaidSession>>;
export async function payCheckoutSession(
  context: Payer,
  sessionId: string,
  input: PayInput,
  options: PayOptions & { claimKey?: ClaimKey<Payment> } = {},
): Promise<Claimed<PaidSession>> {
  const attempt = simulateAttempt(input);
  const hosted = 'of' in context;
  if (!hosted) assertCardUnexpired(input, context.now);
  const database = context.db;
  for (let tries = 1; ; tries += 1) {
    const read = isId('checkoutSession', sessionId)
      ? await findSessionForPayment(database, hosted ? null : context.merchantId, sessionId)
      : null;
    if (!read) throw missing(sessionId);
    const { clockOffsetSeconds, ...session } = read;
    // the connection's time: the key's, or the session's merchant's for the hosted page, which has no key
    const at = hosted ? context.of(session.merchantId, clockOffsetSeconds).now : context.now;
    if (hosted) assertCardUnexpired(input, at);
    assertPayable(session, attempt, at, options.declineLimit);

    const payer = options.customerEmail ?? (input.payment_method === 'interac' ? input.email : undefined);
    const payment = paymentOf(session, attempt, at, payer);
    const paid = { ...session, status: 'complete' as const, paymentId: payment.id, completedAt: at };
    const events =
      payment.status === 'failed'
        ? [newEvent(session.merchantId, 'payment.failed', serializePayment(payment))]
        : [
            newEvent(session.merchantId, acceptedEventOf(payment), serializePayment(payment)),
            newEvent(session.merchantId, 'checkout_session.completed', serializeCheckoutSession(paid, at)),
          ];
    const claim = options.claimKey?.(payment);
    const outcome = await recordPayment(database, payment, events, { declineLimit: options.declineLimit, claim });
    if (outcome === 'order_already_paid')
      throw errors.orderAlreadyPaid(
        `Order ${session.orderReference} is already paid`,
        undefined,
        'This order was already paid, so nothing more was paid.',
      );
    // the session moved on since it was read (paid, expired, another decline): read it again to say how; a
    // session that is still payable was only raced, and the attempt is made again
    if (outcome === 'checkout_session_not_payable') {
      if (tries < 3) continue;
      throw errors.checkoutSessionNotOpen(
        `Checkout session ${sessionId} could not be paid; try again`,
        undefined,
        'Nothing was paid: this checkout was busy. Please try again.',
      );
    }
    const replay = claim && outcome !== true ? settleClaim(outcome, claim) : undefined;
    if (replay) return replay;
    rememberPayment(payment);
    return { payment, session: payment.status === 'failed' ? session : paid };
  }
}

/** What the session allows, as it was read: the statement checks its state again on the row. */
function assertPayable(
  session: CheckoutSessionWithItems,
  attempt: Attempt,
  at: Date,
  declineLimit: number | undefined,
) {
  if (!session.paymentMethods.includes(attempt.method)) {
    throw errors.paymentMethodNotOffered(
      `This checkout session does not offer ${attempt.method}`,
      'payment_method',
      'This checkout does not accept that way to pay. Choose another one.',
    );
  }
  if (session.status !== 'open' || session.expiresAt <= at) {
    const status = effectiveStatus(session, at);
    throw errors.checkoutSessionNotOpen(
      `Checkout session ${session.id} is ${status}, not open`,
      undefined,
      status === 'complete' ? 'This checkout is already paid.' : 'This checkout has expired, so nothing was paid.',
    );
  }
  // USDC never declines
  if (declineLimit !== undefined && attempt.method !== 'usdc' && session.declinedPayments >= declineLimit)
    throw new DeclineLimitReached(session.id);
}

/** The event of an accepted payment: taken at once, or authorized to be captured later. */
function acceptedEventOf(payment: Payment) {
  return payment.status === 'requires_capture' ? ('payment.authorized' as const) : ('payment.succeeded' as const);
}

/** A card accepted on a manual-capture session is authorized only; anything else is as it came out. */
function statusOf(session: CheckoutSessionWithItems, attempt: Attempt): 'succeeded' | 'requires_capture' | 'failed' {
  if (attempt.outcome.status === 'succeeded' && session.captureMethod === 'manual') return 'requires_capture';
  return attempt.outcome.status;
}

function paymentOf(session: CheckoutSessionWithItems, attempt: Attempt, at: Date, payer?: string): Payment {
  const status = statusOf(session, attempt);
  return {
    id: newId('payment'),
    merchantId: session.merchantId,
    orderId: session.orderId,
    orderReference: session.orderReference,
    checkoutSessionId: session.id,
    paymentLinkId: session.paymentLinkId,
    status,
    amount: session.amount,
    currency: session.currency,
    paymentMethod: attempt.method,
    methodDetails: attempt.details,
    failureCode: attempt.outcome.status === 'failed' ? attempt.outcome.failureCode : null,
    refundsFailInSandbox: attempt.outcome.status === 'succeeded' && attempt.outcome.refundsFail,
    // the session's, which never changes: a payment copies it when it is made (lib/core/metadata.ts)
    metadata: metadataOf(session.metadata),
    customerEmail: payer ?? session.customerEmail,
    amountReserved: 0,
    amountRefunded: 0,
    captureMethod: session.captureMethod,
    amountCaptured: status === 'succeeded' ? session.amount : 0,
    canceledAt: null,
    cancellationReason: null,
    createdAt: at,
  };
}

function missing(id: string) {
  return errors.resourceMissing(`No such checkout session: '${id}'`, 'id', 'This checkout does not exist.');
}
