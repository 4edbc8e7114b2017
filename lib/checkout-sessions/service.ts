import { errors } from '@/lib/core/errors';
import { metadataContaining, type Metadata, withoutEmptyValues } from '@/lib/core/metadata';
import { type Claimed, settleClaim } from '@/lib/idempotency/service';
import { paginate } from '@/lib/core/pagination';
import type { RequestContext } from '@/lib/core/context';
import { inTransaction, type Db } from '@/lib/db';
import { emitEvent, newEvent } from '@/lib/events/service';
import type { Currency, PaymentMethod } from '@/lib/generated/prisma/client';
import type { ClaimWithAnswer } from '@/lib/idempotency/repository';
import { isId, newId } from '@/lib/core/ids';
import { hostOfUrl } from '@/lib/merchants/hosts';
import { merchantRules } from '@/lib/merchants/settings';
import { computeTotal, MAX_AMOUNT } from '@/lib/core/money';
import {
  expireDueSessions,
  expireSession,
  findSessionCursor,
  findSessionsPage,
  findSessionsWithItems,
  findSessionWithItems,
  insertSessionClaimingKey,
  insertSessionUnlessOrderPaid,
  type NewCheckoutSession,
} from './repository';
import type { CreateCheckoutSessionInput } from './schemas';
import { serializeCheckoutSession, type CheckoutSessionWithItems } from './serialize';

export const SESSION_LIFETIME_MS = 30 * 60 * 1000;

/** interac serves CAD only, usdc USD only, card both. */
export function methodServesCurrency(method: PaymentMethod, currency: Currency): boolean {
  if (method === 'interac') return currency === 'CAD';
  if (method === 'usdc') return currency === 'USD';
  return true;
}

/** What only the service itself may ask of createCheckoutSession; nothing over /v1 can set it. */
export type InternalSessionOptions = {
  /** the payment link whose "Pay" makes this session */
  paymentLinkId?: string;
  /** the link's metadata, which its sessions copy (lib/core/metadata.ts); a /v1 create takes the body's */
  metadata?: Metadata;
  /**
   * Exact URLs the service built on its own APP_URL (a payment link's receipt and page). They are allowed
   * without being on an approved website; every other URL still must be.
   */
  ownUrls?: string[];
};

export type CreateSessionOptions = InternalSessionOptions & {
  /** an idempotent create over /v1: the key is claimed by the statement that inserts the session */
  claimKey?: (session: CheckoutSessionWithItems) => ClaimWithAnswer;
};

export function createCheckoutSession(
  context: RequestContext,
  input: CreateCheckoutSessionInput,
  internal?: InternalSessionOptions,
): Promise<CheckoutSessionWithItems>;
export function createCheckoutSession(
  context: RequestContext,
  input: CreateCheckoutSessionInput,
  internal: CreateSessionOptions,
): Promise<Claimed<CheckoutSessionWithItems>>;
export async function createCheckoutSession(
  context: RequestContext,
  input: CreateCheckoutSessionInput,
  internal: CreateSessionOptions = {},
): Promise<Claimed<CheckoutSessionWithItems>> {
  const { db: database, merchantId } = context;
  const merchant = await merchantRules(database, merchantId);

  const total = computeTotal(
    input.items.map((item) => ({ quantity: item.quantity, unitAmount: item.unit_amount })),
    input.shipping_amount,
    input.tax_amount,
  );
  if (total < 1 || total > MAX_AMOUNT) {
    throw errors.parameterInvalid(
      `The computed total ${total} must be between 1 and ${MAX_AMOUNT}`,
      'amount',
      `The total must be more than nothing and at most ${MAX_AMOUNT.toLocaleString('en-US')} in minor units.`,
    );
  }
  if (total !== input.amount) {
    throw errors.amountMismatch(
      `amount ${input.amount} does not equal the computed total ${total}`,
      'amount',
      'The amount is not the items, shipping and tax added up.',
    );
  }

  const approvedHosts = new Set(merchant.hosts);
  for (const param of ['return_url', 'cancel_url'] as const) {
    const value = input[param];
    if (!value || internal.ownUrls?.includes(value)) continue;
    const host = hostOfUrl(new URL(value));
    if (!approvedHosts.has(host)) {
      throw errors.urlNotApproved(
        `${param} host ${host} is not an approved website of this account`,
        param,
        `${host} is not one of your approved websites.`,
      );
    }
  }

  const captureMethod = input.capture_method ?? 'automatic';
  if (captureMethod === 'manual') assertManualCaptureServes(merchant.paymentMethods, input.payment_methods);
  const paymentMethods =
    captureMethod === 'manual'
      ? ['card' as const]
      : choosePaymentMethods(merchant.paymentMethods, input.currency, input.payment_methods);

  // everything the session is, but its order, is known before the insert
  const id = newId('checkoutSession');
  const createdAt = context.now;
  const expiresAt = new Date(createdAt.getTime() + SESSION_LIFETIME_MS);
  const cancelUrl = input.cancel_url ?? null;
  const paymentLinkId = internal.paymentLinkId ?? null;
  const items = input.items.map((item) => ({ name: item.name, quantity: item.quantity, unitAmount: item.unit_amount }));
  const newSession: NewCheckoutSession = {
    orderId: newId('order'),
    merchantId,
    orderReference: input.order_reference,
    id,
    currency: input.currency,
    amount: total,
    shippingAmount: input.shipping_amount,
    taxAmount: input.tax_amount,
    paymentMethods,
    returnUrl: input.return_url,
    cancelUrl,
    paymentLinkId,
    metadata: internal.metadata ?? withoutEmptyValues(input.metadata),
    customerEmail: input.customer_email ?? null,
    captureMethod,
    createdAt,
    expiresAt,
    items,
  };
  const session: CheckoutSessionWithItems = {
    ...newSession,
    status: 'open',
    paymentId: null,
    completedAt: null,
    expiredAt: null,
    declinedPayments: 0,
    items: items.map((item, position) => ({ checkoutSessionId: id, position, ...item })),
  };
  const orderAlreadyPaid = () =>
    errors.orderAlreadyPaid(
      `Order ${input.order_reference} is already paid`,
      'order_reference',
      `Order ${input.order_reference} is already paid.`,
    );

  if (internal.claimKey) {
    // the answer's order_id is the statement's to fill in: the order may exist already
    const claim = internal.claimKey(session);
    const outcome = await insertSessionClaimingKey(database, newSession, claim);
    if (outcome === 'order_already_paid') throw orderAlreadyPaid();
    return settleClaim(outcome, claim) ?? { ...session, orderId: outcome.orderId! };
  }
  const order = await insertSessionUnlessOrderPaid(database, newSession);
  if (order.status === 'paid') throw orderAlreadyPaid();
  return { ...session, orderId: order.id };
}

/**
 * Manual capture holds a card's authorization; the other methods move money at once, so a manual session offers
 * cards alone: asking it for another method, or of a merchant who does not take cards, is refused.
 */
function assertManualCaptureServes(approved: PaymentMethod[], requested?: PaymentMethod[]): void {
  const other = requested?.find((method) => method !== 'card');
  if (other) {
    throw errors.parameterInvalid(
      `capture_method manual is for cards only; payment_methods names ${other}`,
      'capture_method',
      `${PAYMENT_METHOD_NAMES[other]} cannot be captured later: only cards can.`,
    );
  }
  if (!approved.includes('card')) {
    throw errors.parameterInvalid(
      'capture_method manual is for cards only, and card is not an approved payment method of this account',
      'capture_method',
      'Only cards can be captured later, and cards are not one of your approved payment methods.',
    );
  }
}

/** How a method is named to a person (userMessage). */
const PAYMENT_METHOD_NAMES: Record<PaymentMethod, string> = { card: 'Card', usdc: 'USDC', interac: 'Interac' };

export function choosePaymentMethods(
  approved: PaymentMethod[],
  currency: Currency,
  requested?: PaymentMethod[],
): PaymentMethod[] {
  if (!requested) {
    const methods = approved.filter((method) => methodServesCurrency(method, currency));
    if (methods.length === 0) {
      throw errors.paymentMethodUnavailable(
        `No approved payment method of this account can take ${currency}`,
        'payment_methods',
        `None of your approved payment methods takes ${currency}.`,
      );
    }
    return methods;
  }
  requested.forEach((method, index) => {
    if (!approved.includes(method)) {
      throw errors.paymentMethodNotApproved(
        `${method} is not an approved payment method of this account`,
        `payment_methods.${index}`,
        `${PAYMENT_METHOD_NAMES[method]} is not one of your approved payment methods.`,
      );
    }
  });
  requested.forEach((method, index) => {
    if (!methodServesCurrency(method, currency)) {
      throw errors.paymentMethodUnavailable(
        `${method} cannot take ${currency}`,
        `payment_methods.${index}`,
        `${PAYMENT_METHOD_NAMES[method]} cannot take ${currency}.`,
      );
    }
  });
  return requested;
}

/**
 * The merchant's session with its items, as one prepared statement: the API's most frequent read (GET), or
 * null for any other id (another merchant's reads exactly like a missing one).
 */
export async function getCheckoutSession(
  context: RequestContext,
  id: string,
): Promise<CheckoutSessionWithItems | null> {
  if (!isId('checkoutSession', id)) return null;
  return findSessionWithItems(context.db, context.merchantId, id);
}

/** Any merchant's session with its items, for the hosted page, where the id is the capability. */
export async function getHostedCheckoutSession(database: Db, id: string): Promise<CheckoutSessionWithItems | null> {
  if (!isId('checkoutSession', id)) return null;
  return findSessionWithItems(database, null, id);
}

export async function getCheckoutSessionOrThrow(context: RequestContext, id: string) {
  const session = await getCheckoutSession(context, id);
  if (!session)
    throw errors.resourceMissing(`No such checkout session: '${id}'`, 'id', 'This checkout session was not found.');
  return session;
}

export async function listCheckoutSessions(
  context: RequestContext,
  query: {
    limit: number;
    starting_after?: string;
    order_reference?: string;
    status?: 'open' | 'complete' | 'expired';
    metadata?: Metadata;
  },
) {
  const filters = {
    orderReference: query.order_reference,
    status: query.status,
    metadata: metadataContaining(query.metadata),
    at: context.now,
  };
  const { db: database, merchantId } = context;
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findSessionCursor(database, merchantId, id),
    findPage: ({ after, take }) => findSessionsPage(database, merchantId, filters, { after, take }),
  });
}

/** open → expired, by the merchant. A session already past its expiry is no longer open. */
export function expireCheckoutSession(context: RequestContext, id: string): Promise<CheckoutSessionWithItems>;
export function expireCheckoutSession(
  context: RequestContext,
  id: string,
  options: Pick<CreateSessionOptions, 'claimKey'>,
): Promise<Claimed<CheckoutSessionWithItems>>;
export async function expireCheckoutSession(
  context: RequestContext,
  id: string,
  options: Pick<CreateSessionOptions, 'claimKey'> = {},
): Promise<Claimed<CheckoutSessionWithItems>> {
  const { db: database, merchantId, now: at } = context;
  const session = await getCheckoutSessionOrThrow(context, id);
  const expired = { ...session, status: 'expired' as const, expiredAt: at };
  const event = newEvent(merchantId, 'checkout_session.expired', serializeCheckoutSession(expired, at));
  const claim = options.claimKey?.(expired);
  const outcome = await expireSession(database, { id, merchantId, at }, event, claim);
  if (outcome === false || outcome === 'checkout_session_not_open') {
    // worded from the session as it is now: it may have been paid since it was read
    const { status } = serializeCheckoutSession(await getCheckoutSessionOrThrow(context, id), at);
    throw errors.checkoutSessionNotOpen(
      `Checkout session ${id} is ${status}, not open`,
      undefined,
      `This session is already ${status}; only an open session can be expired.`,
    );
  }
  if (claim && outcome !== true) return settleClaim(outcome, claim) ?? expired;
  return expired;
}

/** The worker's sweep: persists expiry of sessions past expires_at and emits their events. */
export async function expireDueCheckoutSessions(database: Db, batchSize = 100): Promise<number> {
  return inTransaction(database, async (tx) => {
    const due = await expireDueSessions(tx, batchSize);
    if (due.length === 0) return 0;
    const sessions = await findSessionsWithItems(tx, due);
    for (const session of sessions) {
      // expired by this sweep: its status is the row's, whatever the clock
      const event = serializeCheckoutSession(session, session.expiresAt);
      await emitEvent(tx, session.merchantId, 'checkout_session.expired', event);
    }
    return sessions.length;
  });
}
