import { errors } from '@/lib/api/errors';
import { NEWEST_FIRST, paginate } from '@/lib/api/pagination';
import { now } from '@/lib/clock';
import { inTransaction, sql, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/service';
import type { Currency, PaymentMethod, Prisma } from '@/lib/generated/prisma/client';
import { isId, newId } from '@/lib/ids';
import { hostOfUrl } from '@/lib/merchants/hosts';
import { getMerchantOrThrow } from '@/lib/merchants/service';
import { computeTotal, MAX_AMOUNT } from '@/lib/money';
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
  /**
   * Exact URLs the service built on its own APP_URL (a payment link's receipt and page). They are allowed
   * without being on an approved website; every other URL still must be.
   */
  ownUrls?: string[];
};

export async function createCheckoutSession(
  database: Db,
  merchantId: string,
  input: CreateCheckoutSessionInput,
  internal: InternalSessionOptions = {},
) {
  const merchant = await getMerchantOrThrow(database, merchantId);

  const total = computeTotal(
    input.items.map((item) => ({ quantity: item.quantity, unitAmount: item.unit_amount })),
    input.shipping_amount,
    input.tax_amount,
  );
  if (total < 1 || total > MAX_AMOUNT) {
    throw errors.parameterInvalid(`The computed total ${total} must be between 1 and ${MAX_AMOUNT}`, 'amount');
  }
  if (total !== input.amount) {
    throw errors.amountMismatch(`amount ${input.amount} does not equal the computed total ${total}`, 'amount');
  }

  const approvedHosts = new Set(merchant.websites.map((website) => website.host));
  for (const param of ['return_url', 'cancel_url'] as const) {
    const value = input[param];
    if (!value || internal.ownUrls?.includes(value)) continue;
    const host = hostOfUrl(new URL(value));
    if (!approvedHosts.has(host)) {
      throw errors.urlNotApproved(`${param} host ${host} is not an approved website of this account`, param);
    }
  }

  const paymentMethods = choosePaymentMethods(merchant.paymentMethods, input.currency, input.payment_methods);

  // everything the session is, but its order, is known before the insert
  const id = newId('checkoutSession');
  const createdAt = now();
  const expiresAt = new Date(createdAt.getTime() + SESSION_LIFETIME_MS);
  const cancelUrl = input.cancel_url ?? null;
  const paymentLinkId = internal.paymentLinkId ?? null;
  const [order] = await sql<{ id: string; status: 'unpaid' | 'paid' }>(
    database,
    'insert-checkout-session',
    INSERT_SESSION_UNLESS_ORDER_PAID,
    [
      newId('order'),
      merchantId,
      input.order_reference,
      id,
      input.currency,
      total,
      input.shipping_amount,
      input.tax_amount,
      paymentMethods,
      input.return_url,
      cancelUrl,
      paymentLinkId,
      createdAt,
      expiresAt,
      input.items.map((item) => item.name),
      input.items.map((item) => item.quantity),
      input.items.map((item) => item.unit_amount),
    ],
  );
  if (order.status === 'paid') {
    throw errors.orderAlreadyPaid(`Order ${input.order_reference} is already paid`, 'order_reference');
  }
  const session: CheckoutSessionWithItems = {
    id,
    merchantId,
    orderId: order.id,
    orderReference: input.order_reference,
    status: 'open',
    currency: input.currency,
    amount: total,
    shippingAmount: input.shipping_amount,
    taxAmount: input.tax_amount,
    paymentMethods,
    returnUrl: input.return_url,
    cancelUrl,
    paymentId: null,
    expiresAt,
    createdAt,
    completedAt: null,
    expiredAt: null,
    paymentLinkId,
    items: input.items.map((item, position) => ({
      checkoutSessionId: id,
      position,
      name: item.name,
      quantity: item.quantity,
      unitAmount: item.unit_amount,
    })),
  };
  return session;
}

// One statement: find or create the order and, unless it is paid already, insert the session and its items.
// Two requests with a new order reference at once make one order: the second waits on the unique index and
// then takes the first's. Atomic on its own, and inside the caller's transaction when there is one (the
// idempotency record's).
const INSERT_SESSION_UNLESS_ORDER_PAID = `
  WITH upserted_order AS (
    INSERT INTO "orders" ("id", "merchant_id", "reference") VALUES ($1, $2, $3)
    ON CONFLICT ("merchant_id", "reference") DO UPDATE SET "reference" = EXCLUDED."reference"
    RETURNING "id", "status"::text AS "status"
  ), new_session AS (
    INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "currency", "amount",
      "shipping_amount", "tax_amount", "payment_methods", "return_url", "cancel_url", "payment_link_id", "created_at", "expires_at")
    SELECT $4::text, $2::text, o."id", $3::text, $5::"Currency", $6::int, $7::int, $8::int, $9::"PaymentMethod"[],
           $10::text, $11::text, $12::text, $13::timestamptz, $14::timestamptz
    FROM upserted_order AS o WHERE o."status" = 'unpaid'
    RETURNING "id"
  ), new_items AS (
    INSERT INTO "checkout_items" ("checkout_session_id", "position", "name", "quantity", "unit_amount")
    SELECT s."id", i."ordinality" - 1, i."name", i."quantity", i."unit_amount"
    FROM new_session AS s, unnest($15::text[], $16::int[], $17::int[]) WITH ORDINALITY AS i("name", "quantity", "unit_amount", "ordinality")
  )
  SELECT "id", "status" FROM upserted_order`;

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
      );
    }
    return methods;
  }
  requested.forEach((method, index) => {
    if (!approved.includes(method)) {
      throw errors.paymentMethodNotApproved(
        `${method} is not an approved payment method of this account`,
        `payment_methods.${index}`,
      );
    }
  });
  requested.forEach((method, index) => {
    if (!methodServesCurrency(method, currency)) {
      throw errors.paymentMethodUnavailable(`${method} cannot take ${currency}`, `payment_methods.${index}`);
    }
  });
  return requested;
}

/**
 * A session with its items, as one prepared statement: the API's most frequent read (GET, and the hosted
 * page). `merchantId` null reads any merchant's session (the hosted page, where the id is the capability).
 */
export async function getCheckoutSession(
  database: Db,
  merchantId: string | null,
  id: string,
): Promise<CheckoutSessionWithItems | null> {
  if (!isId('checkoutSession', id)) return null;
  const [session] = await sql<CheckoutSessionWithItems>(database, 'get-checkout-session', SELECT_SESSION_WITH_ITEMS, [
    id,
    merchantId,
  ]);
  return session ?? null;
}

const SELECT_SESSION_WITH_ITEMS = `
  SELECT s."id", s."merchant_id" AS "merchantId", s."order_id" AS "orderId", s."order_reference" AS "orderReference",
         s."status"::text AS "status", s."currency"::text AS "currency", s."amount",
         s."shipping_amount" AS "shippingAmount", s."tax_amount" AS "taxAmount",
         s."payment_methods"::text[] AS "paymentMethods", s."return_url" AS "returnUrl", s."cancel_url" AS "cancelUrl",
         s."payment_id" AS "paymentId", s."expires_at" AS "expiresAt", s."created_at" AS "createdAt",
         s."completed_at" AS "completedAt", s."expired_at" AS "expiredAt", s."payment_link_id" AS "paymentLinkId",
         COALESCE((SELECT json_agg(json_build_object('checkoutSessionId', i."checkout_session_id", 'position', i."position",
                                                     'name', i."name", 'quantity', i."quantity", 'unitAmount', i."unit_amount")
                                   ORDER BY i."position")
                   FROM "checkout_items" AS i WHERE i."checkout_session_id" = s."id"), '[]'::json) AS "items"
  FROM "checkout_sessions" AS s
  WHERE s."id" = $1 AND ($2::text IS NULL OR s."merchant_id" = $2)`;

export async function getCheckoutSessionOrThrow(database: Db, merchantId: string, id: string) {
  const session = await getCheckoutSession(database, merchantId, id);
  if (!session) throw errors.resourceMissing(`No such checkout session: '${id}'`, 'id');
  return session;
}

export async function listCheckoutSessions(
  database: Db,
  merchantId: string,
  query: { limit: number; starting_after?: string; order_reference?: string; status?: 'open' | 'complete' | 'expired' },
) {
  const at = now();
  const statusFilter: Prisma.CheckoutSessionWhereInput =
    query.status === 'open'
      ? { status: 'open', expiresAt: { gt: at } }
      : query.status === 'expired'
        ? { OR: [{ status: 'expired' }, { status: 'open', expiresAt: { lte: at } }] }
        : query.status === 'complete'
          ? { status: 'complete' }
          : {};
  const base: Prisma.CheckoutSessionWhereInput = {
    merchantId,
    ...(query.order_reference !== undefined ? { orderReference: query.order_reference } : {}),
  };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) =>
      database.checkoutSession.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } }),
    findPage: ({ where, take }) =>
      database.checkoutSession.findMany({
        where: { AND: [base, statusFilter, where] },
        orderBy: NEWEST_FIRST,
        take,
        include: { items: true },
      }),
    serialize: serializeCheckoutSession,
  });
}

/** open → expired, by the merchant. A session already past its expiry is no longer open. */
export async function expireCheckoutSession(database: Db, merchantId: string, id: string) {
  return inTransaction(database, async (tx) => {
    const session = await getCheckoutSessionOrThrow(tx, merchantId, id);
    const at = now();
    const { count } = await tx.checkoutSession.updateMany({
      where: { id, merchantId, status: 'open', expiresAt: { gt: at } },
      data: { status: 'expired', expiredAt: at },
    });
    if (count !== 1) {
      throw errors.checkoutSessionNotOpen(
        `Checkout session ${id} is ${serializeCheckoutSession(session).status}, not open`,
      );
    }
    const expired = serializeCheckoutSession({ ...session, status: 'expired', expiredAt: at });
    await emitEvent(tx, merchantId, 'checkout_session.expired', expired);
    return expired;
  });
}

/** The worker's sweep: persists expiry of sessions past expires_at and emits their events. */
export async function expireDueCheckoutSessions(database: Db, batchSize = 100): Promise<number> {
  return inTransaction(database, async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "checkout_sessions" SET "status" = 'expired', "expired_at" = "expires_at"
      WHERE "id" IN (
        SELECT "id" FROM "checkout_sessions"
        WHERE "status" = 'open' AND "expires_at" <= now()
        ORDER BY "expires_at" LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING "id"`;
    if (due.length === 0) return 0;
    const sessions = await tx.checkoutSession.findMany({
      where: { id: { in: due.map((row) => row.id) } },
      include: { items: true },
    });
    for (const session of sessions) {
      await emitEvent(tx, session.merchantId, 'checkout_session.expired', serializeCheckoutSession(session));
    }
    return sessions.length;
  });
}
