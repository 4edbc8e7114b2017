import { randomBytes } from 'node:crypto';
import { errors } from '@/lib/api/errors';
import { metadataOf } from '@/lib/api/metadata';
import {
  findSessionWithItemsById,
  lockSessionForPayment,
  markSessionComplete,
} from '@/lib/checkout-sessions/repository';
import { serializeCheckoutSession } from '@/lib/checkout-sessions/serialize';
import { now, onConnectionClock } from '@/lib/clock';
import { inTransaction, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import type { PaymentMethod, Prisma } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/ids';
import { lockOrderForPayment, markOrderPaid } from '@/lib/orders/repository';
import { cardBrand, cardOutcome, isExpired, normalizeCardNumber, passesLuhn } from './cards';
import { countDeclinedPayments, insertPayment } from './repository';
import type { PayInput } from './schemas';
import { serializePayment } from './serialize';

// Paying a checkout session: the one code path of the hosted page and the test-helper endpoint.

type Attempt = {
  method: PaymentMethod;
  details: Prisma.InputJsonValue;
  outcome: { status: 'succeeded'; refundsFail: boolean } | { status: 'failed'; failureCode: string };
};

/** Checks what can be checked without the session, so bad input never reaches the database. */
function simulateAttempt(input: PayInput): Attempt {
  if (input.payment_method === 'card') {
    const digits = normalizeCardNumber(input.card_number);
    if (!passesLuhn(digits))
      throw errors.parameterInvalid('Your card number is invalid', 'card_number', 'Your card number is invalid.');
    if (
      input.exp_month !== undefined &&
      input.exp_year !== undefined &&
      isExpired(input.exp_month, input.exp_year, now())
    ) {
      throw errors.parameterInvalid('Your card has expired', 'exp_year', 'Your card has expired.');
    }
    // only brand, last4 and expiry are ever kept
    const details = {
      card: {
        brand: cardBrand(digits),
        last4: digits.slice(-4),
        exp_month: input.exp_month ?? null,
        exp_year: input.exp_year ?? null,
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
  const details = { interac: { email_masked: input.email ? maskEmail(input.email) : null, bank: input.bank ?? null } };
  const outcome =
    input.outcome === 'approve'
      ? ({ status: 'succeeded', refundsFail: false } as const)
      : ({ status: 'failed', failureCode: 'interac_declined' } as const);
  return { method: 'interac', details, outcome };
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

export type PayOptions = { declineLimit?: number };

/**
 * Pays a session in one transaction. The session row is locked first, then its order's, so double clicks,
 * two tabs and two sessions of one order all pay once; a partial unique index backs the order rule.
 * A decline records a failed payment and leaves the session open. `merchantId` is null on the hosted page.
 */
export async function payCheckoutSession(
  database: Db,
  merchantId: string | null,
  sessionId: string,
  input: PayInput,
  options: PayOptions = {},
) {
  const attempt = simulateAttempt(input);
  return inTransaction(database, async (tx) => {
    if (!isId('checkoutSession', sessionId)) throw missing(sessionId);
    const clockOffsetSeconds = await lockSessionForPayment(tx, sessionId);
    if (clockOffsetSeconds === undefined) throw missing(sessionId);
    const session = await findSessionWithItemsById(tx, sessionId);
    if (merchantId && session.merchantId !== merchantId) throw missing(sessionId);

    if (!session.paymentMethods.includes(attempt.method)) {
      throw errors.paymentMethodNotOffered(
        `This checkout session does not offer ${attempt.method}`,
        'payment_method',
        'This checkout does not accept that way to pay. Choose another one.',
      );
    }
    // the connection's time, also for the hosted page, which has no API key to bring it (lib/api/route.ts)
    const at = onConnectionClock(clockOffsetSeconds, now);
    if (session.status !== 'open' || session.expiresAt <= at) {
      throw errors.checkoutSessionNotOpen(
        `Checkout session ${sessionId} is ${serializeCheckoutSession(session).status}, not open`,
      );
    }
    // counted under the session's lock, so parallel declines cannot slip past the limit; USDC never declines
    if (options.declineLimit !== undefined && attempt.method !== 'usdc') {
      const declined = await countDeclinedPayments(tx, session.orderId, session.id);
      if (declined >= options.declineLimit) throw new DeclineLimitReached(session.id);
    }
    const order = await lockOrderForPayment(tx, session.orderId);
    if (order.status === 'paid') throw errors.orderAlreadyPaid(`Order ${order.reference} is already paid`);

    const payment = await insertPayment(tx, {
      id: newId('payment'),
      merchantId: session.merchantId,
      orderId: session.orderId,
      orderReference: session.orderReference,
      checkoutSessionId: session.id,
      paymentLinkId: session.paymentLinkId,
      status: attempt.outcome.status,
      amount: session.amount,
      currency: session.currency,
      paymentMethod: attempt.method,
      methodDetails: attempt.details,
      failureCode: attempt.outcome.status === 'failed' ? attempt.outcome.failureCode : null,
      refundsFailInSandbox: attempt.outcome.status === 'succeeded' && attempt.outcome.refundsFail,
      // the session's, as it is under the session's lock: copied by the insert that makes the payment (api.md §14)
      metadata: metadataOf(session.metadata),
      createdAt: at,
    });
    if (payment.status === 'failed') {
      await emitEvent(tx, session.merchantId, 'payment.failed', serializePayment(payment));
      return { payment, session };
    }
    const completed = await markSessionComplete(tx, session.id, payment.id, at);
    await markOrderPaid(tx, order.id, payment.id);
    await emitEvent(tx, session.merchantId, 'payment.succeeded', serializePayment(payment));
    await emitEvent(tx, session.merchantId, 'checkout_session.completed', serializeCheckoutSession(completed));
    return { payment, session: completed };
  });
}

function missing(id: string) {
  return errors.resourceMissing(`No such checkout session: '${id}'`, 'id');
}
