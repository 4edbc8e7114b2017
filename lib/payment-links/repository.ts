import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { metadataField, METADATA_MAX_KEYS, type Metadata } from '@/lib/core/metadata';
import { NEWEST_FIRST } from '@/lib/core/pagination';
import type { Db } from '@/lib/db';
import { cte, params, permitted, raw, runWrite, sql as statementSql, write } from '@/lib/db/statement';
import { countLimit } from '@/lib/db/page';
import type { PaymentLink, Prisma } from '@/lib/generated/prisma/client';
import { MAX_AMOUNT } from '@/lib/core/money';
import { Currency, PaymentMethod } from '@/lib/generated/prisma/enums';
import {
  type ClaimOutcome,
  type ClaimWithAnswer,
  runWriteClaimingKey,
  withKeyClaim,
} from '@/lib/idempotency/repository';

// Every query on payment_links. Taking the next order number is one conditional UPDATE (see
// checkout.ts): concurrent customers each get their own n, and a deactivated link refuses.

export type NewPaymentLink = Omit<PaymentLink, 'orderCount' | 'metadata'> & { metadata: Metadata };

export async function insertPaymentLink(database: Db, link: NewPaymentLink) {
  return database.paymentLink.create({ data: link });
}

type LinkValues = {
  linkId: string;
  merchantId: string;
  name: string;
  description: string | null;
  amount: number;
  currency: PaymentLink['currency'];
  paymentMethods: PaymentLink['paymentMethods'];
  afterPaymentUrl: string | null;
  active: boolean;
  metadata: string;
  quantityMinimum: number | null;
  quantityMaximum: number | null;
  createdAt: Date;
  updatedAt: Date;
};

const l = params<LinkValues>({
  linkId: 'text',
  merchantId: 'text',
  name: 'text',
  description: 'text',
  amount: 'int',
  currency: '"Currency"',
  paymentMethods: '"PaymentMethod"[]',
  afterPaymentUrl: 'text',
  active: 'boolean',
  metadata: 'jsonb',
  quantityMinimum: 'int',
  quantityMaximum: 'int',
  createdAt: 'timestamptz',
  updatedAt: 'timestamptz',
});

const INSERT_PAYMENT_LINK = withKeyClaim(
  write<LinkValues>({
    name: 'insert-payment-link',
    writes: [
      cte(
        'inserted',
        statementSql`
        INSERT INTO "payment_links" ("id", "merchant_id", "name", "description", "amount", "currency", "payment_methods",
          "after_payment_url", "active", "metadata", "quantity_minimum", "quantity_maximum", "created_at", "updated_at")
        SELECT ${l.linkId}, ${l.merchantId}, ${l.name}, ${l.description}, ${l.amount}, ${l.currency}, ${l.paymentMethods},
               ${l.afterPaymentUrl}, ${l.active}, ${l.metadata}, ${l.quantityMinimum}, ${l.quantityMaximum},
               ${l.createdAt}, ${l.updatedAt}
        FROM ${permitted}`,
      ),
    ],
  }),
);

/** insertPaymentLink with the key's claim, in one statement: the claim's outcome. */
export async function insertPaymentLinkClaimingKey(
  database: Db,
  link: NewPaymentLink,
  claim: ClaimWithAnswer,
): Promise<ClaimOutcome> {
  const values: LinkValues = {
    linkId: link.id,
    merchantId: link.merchantId,
    name: link.name,
    description: link.description,
    amount: link.amount,
    currency: link.currency,
    paymentMethods: link.paymentMethods,
    afterPaymentUrl: link.afterPaymentUrl,
    active: link.active,
    metadata: JSON.stringify(link.metadata),
    quantityMinimum: link.quantityMinimum,
    quantityMaximum: link.quantityMaximum,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
  };
  const result = await runWriteClaimingKey(database, INSERT_PAYMENT_LINK, values, claim);
  if ('refused' in result) throw new Error(`an insert of a payment link was refused: ${result.refused}`);
  return result.outcome;
}

/** The merchant's link, or null. */
export async function findPaymentLink(database: Db, merchantId: string, id: string) {
  return database.paymentLink.findFirst({ where: { id, merchantId } });
}

export type PaymentLinkChanges = {
  name?: string;
  /** null clears it */
  description?: string | null;
  active?: boolean;
  /** a new price: sessions already made keep theirs */
  amount?: number;
  /** the quantities offered, replaced; both null for a quantity of one */
  quantity?: { minimum: number | null; maximum: number | null };
  /** merged into the link's: `set` keys are set, `remove` keys removed, the others stay */
  metadata: { set: Metadata; remove: string[] };
  /** null when nothing changes (an update with an empty body still answers, and stores its answer) */
  updatedAt: Date | null;
};

// The row UPDATE_PAYMENT_LINK returns, alias by alias, checked where it is read.
const paymentLinkRow = z.object({
  id: z.string(),
  merchantId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  amount: z.number().int(),
  currency: z.enum(Currency),
  paymentMethods: z.array(z.enum(PaymentMethod)),
  afterPaymentUrl: z.string().nullable(),
  active: z.boolean(),
  metadata: metadataField,
  orderCount: z.number().int(),
  quantityMinimum: z.number().int().nullable(),
  quantityMaximum: z.number().int().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
}) satisfies z.ZodType<PaymentLink>;

/** The columns of a returned link, as paymentLinkRow reads them; `table` qualifies them where names clash. */
const linkColumns = (table = '') => {
  const t = table ? `"${table}".` : '';
  return `${t}"id", ${t}"merchant_id" AS "merchantId", ${t}"name", ${t}"description", ${t}"amount",
    ${t}"currency"::text AS "currency", ${t}"payment_methods"::text[] AS "paymentMethods",
    ${t}"after_payment_url" AS "afterPaymentUrl", ${t}"active", ${t}"metadata", ${t}"order_count" AS "orderCount",
    ${t}"quantity_minimum" AS "quantityMinimum", ${t}"quantity_maximum" AS "quantityMaximum",
    ${t}"created_at" AS "createdAt", ${t}"updated_at" AS "updatedAt"`;
};

// A link's update as two CTEs. `locked` locks the row first (FOR UPDATE waits for a concurrent update and
// reads its result) and works out there the metadata merged and the price and quantities as they will be, so
// two concurrent updates with different keys both keep theirs (a merge of a value read earlier would lose one),
// and a new price checked against the largest quantity is checked against the one a concurrent update just set;
// `changed` writes them and the other fields, only while the merged metadata keeps within the key limit
// (Stripe's rule) and the price times the largest quantity is still one payment's amount, so an update past
// either changes nothing.
type UpdateValues = {
  linkId: string;
  name: string | null;
  setsDescription: boolean;
  description: string | null;
  active: boolean | null;
  amount: number | null;
  setsQuantity: boolean;
  quantityMinimum: number | null;
  quantityMaximum: number | null;
  metadataSet: string;
  metadataRemove: string[];
  updatedAt: Date | null;
  /** METADATA_IN_ANSWER, which the stored answer holds in place of the metadata */
  metadataMarker: string;
};

const u = params<UpdateValues>({
  linkId: 'text',
  name: 'text',
  setsDescription: 'boolean',
  description: 'text',
  active: 'boolean',
  amount: 'int',
  setsQuantity: 'boolean',
  quantityMinimum: 'int',
  quantityMaximum: 'int',
  metadataSet: 'jsonb',
  metadataRemove: 'text[]',
  updatedAt: 'timestamptz',
  metadataMarker: 'text',
});

const locked = cte(
  'locked',
  statementSql`
  SELECT "id", (("metadata" || ${u.metadataSet}) - ${u.metadataRemove}) AS "metadata",
    coalesce(${u.amount}, "amount") AS "amount",
    CASE WHEN ${u.setsQuantity} THEN ${u.quantityMinimum} ELSE "quantity_minimum" END AS "quantity_minimum",
    CASE WHEN ${u.setsQuantity} THEN ${u.quantityMaximum} ELSE "quantity_maximum" END AS "quantity_maximum"
  FROM "payment_links"
  WHERE "id" = ${u.linkId} FOR UPDATE`,
);

// the largest payment the link would ask for; null (no limit to pass) for a quantity of one
const largestPayment = statementSql`l."amount"::bigint * l."quantity_maximum"`;

const changed = cte(
  'changed',
  statementSql`
  UPDATE "payment_links" SET
    "name" = coalesce(${u.name}, "name"),
    "description" = CASE WHEN ${u.setsDescription} THEN ${u.description} ELSE "description" END,
    "active" = coalesce(${u.active}, "active"),
    "amount" = l."amount",
    "quantity_minimum" = l."quantity_minimum",
    "quantity_maximum" = l."quantity_maximum",
    "metadata" = l."metadata",
    "updated_at" = coalesce(${u.updatedAt}, "payment_links"."updated_at")
  FROM ${locked} AS l, ${permitted}
  WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= ${raw(METADATA_MAX_KEYS)}
    AND coalesce(${largestPayment} <= ${raw(MAX_AMOUNT)}, true)
  RETURNING ${raw(linkColumns('payment_links'))}`,
);

/**
 * Why an update changed nothing: its merged metadata would have more keys than allowed, or its price times the
 * largest quantity offered would be more than one payment can be.
 */
export type UpdateRefusal = 'amount_limit' | 'metadata_limit';

/**
 * Where the answer an update stores has the link's metadata, which only its statement knows (merged): a value
 * no request can contain, made at random for the process, so that only this place is replaced.
 */
export const METADATA_IN_ANSWER = `metadata-${randomBytes(16).toString('hex')}`;

// With the request's Idempotency-Key, the stored answer gets the merged metadata of `locked` in place of
// METADATA_IN_ANSWER, so the answer is exactly the link this update left. An update past the key limit
// undoes the statement, so the key stays free.
const UPDATE_PAYMENT_LINK = withKeyClaim(
  write<UpdateValues, UpdateRefusal>({
    name: 'update-payment-link',
    writes: [changed],
    result: changed,
    refusals: [
      {
        reason: 'amount_limit',
        when: statementSql`EXISTS (SELECT 1 FROM ${locked} AS l WHERE ${largestPayment} > ${raw(MAX_AMOUNT)})`,
      },
      { reason: 'metadata_limit', when: statementSql`NOT EXISTS (SELECT 1 FROM ${changed})` },
    ],
  }),
  {
    answer: (given) =>
      cte(
        'answer',
        statementSql`
        SELECT replace(${given}, to_json(${u.metadataMarker})::text, l."metadata"::text) AS "answer" FROM ${locked} AS l`,
      ),
  },
);

/** Every statement the builder compiled here, kept as text in repository.sql (lib/db/statement-snapshots.test.ts). */
export const STATEMENTS = [
  INSERT_PAYMENT_LINK.statement,
  UPDATE_PAYMENT_LINK.write.plain,
  UPDATE_PAYMENT_LINK.statement,
];

/**
 * updatePaymentLinkById, claiming the request's key with its answer in the same statement: the claim's outcome
 * and the changed link, or why nothing was written (UpdateRefusal; the key stays free).
 */
export async function updatePaymentLinkClaimingKey(
  database: Db,
  id: string,
  changes: PaymentLinkChanges,
  claim: ClaimWithAnswer,
): Promise<{ outcome: ClaimOutcome; link: PaymentLink | undefined } | UpdateRefusal> {
  const result = await runWriteClaimingKey(database, UPDATE_PAYMENT_LINK, updateValues(id, changes), claim);
  if ('refused' in result) return result.refused;
  const link = paymentLinkRow.safeParse(result.row);
  return { outcome: result.outcome, link: link.success ? link.data : undefined };
}

function updateValues(id: string, changes: PaymentLinkChanges): UpdateValues {
  return {
    linkId: id,
    name: changes.name ?? null,
    setsDescription: changes.description !== undefined,
    description: changes.description ?? null,
    active: changes.active ?? null,
    amount: changes.amount ?? null,
    setsQuantity: changes.quantity !== undefined,
    quantityMinimum: changes.quantity?.minimum ?? null,
    quantityMaximum: changes.quantity?.maximum ?? null,
    metadataSet: JSON.stringify(changes.metadata.set),
    metadataRemove: changes.metadata.remove,
    updatedAt: changes.updatedAt,
    metadataMarker: METADATA_IN_ANSWER,
  };
}

/** Changes a link in one statement, merging its metadata; or why nothing changed (UpdateRefusal). */
export async function updatePaymentLinkById(
  database: Db,
  id: string,
  changes: PaymentLinkChanges,
): Promise<PaymentLink | UpdateRefusal> {
  const result = await runWrite(database, UPDATE_PAYMENT_LINK.write, updateValues(id, changes));
  return result.refused ?? paymentLinkRow.parse(result.row);
}

/** The cursor of the API's list: the merchant's link's id and creation time. */
export async function findPaymentLinkCursor(database: Db, merchantId: string, id: string) {
  return database.paymentLink.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } });
}

/** A page of the API's list, newest first; `page.where` is the pagination's own condition. */
export async function findPaymentLinksPage(
  database: Db,
  merchantId: string,
  filters: { active?: boolean },
  page: { where: object; take: number },
) {
  const base: Prisma.PaymentLinkWhereInput = {
    merchantId,
    ...(filters.active !== undefined ? { active: filters.active } : {}),
  };
  return database.paymentLink.findMany({ where: { AND: [base, page.where] }, orderBy: NEWEST_FIRST, take: page.take });
}

/** The dashboard's list, a page at a time, with the total. */
export async function countAndFindPaymentLinks(database: Db, merchantId: string, page: { skip: number; take: number }) {
  const where = { merchantId };
  const [total, rows] = await Promise.all([
    database.paymentLink.count({ where, orderBy: NEWEST_FIRST, take: countLimit(page.skip) }),
    database.paymentLink.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}

/** Any merchant's link, with what its public page shows of the merchant (the id is the capability). */
export async function findPublicPaymentLink(database: Db, id: string) {
  return database.paymentLink.findUnique({
    where: { id },
    include: { merchant: { select: { name: true, paymentMethods: true } } },
  });
}

export async function findPaymentLinkDescription(database: Db, id: string): Promise<string | null> {
  const link = await database.paymentLink.findUnique({ where: { id }, select: { description: true } });
  return link?.description ?? null;
}

/** The names of the merchant's links among `ids`, by id: the dashboard names a link's orders after it. */
export async function findPaymentLinkNames(
  database: Db,
  merchantId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const links = await database.paymentLink.findMany({
    where: { merchantId, id: { in: [...new Set(ids)] } },
    select: { id: true, name: true },
  });
  return new Map(links.map((link) => [link.id, link.name]));
}

export async function findPaymentLinkById(database: Db, id: string) {
  return database.paymentLink.findUniqueOrThrow({ where: { id } });
}

export async function paymentLinkExists(database: Db, id: string): Promise<boolean> {
  return (await database.paymentLink.count({ where: { id } })) > 0;
}

const claimedRows = z.array(z.object({ order_count: z.number().int() }));

/** The link's next order number, or null when the link is inactive or missing. */
export async function claimNextOrderNumber(database: Db, id: string): Promise<number | null> {
  const rows = await database.$queryRaw<unknown[]>`
        UPDATE "payment_links" SET "order_count" = "order_count" + 1
        WHERE "id" = ${id} AND "active"
        RETURNING "order_count"`;
  const [claimed] = claimedRows.parse(rows);
  return claimed ? claimed.order_count : null;
}

export type LinkSales = { payments: number; volume: number };

const salesRows = z.array(z.object({ link_id: z.string(), payments: z.bigint(), volume: z.bigint() }));

/**
 * Succeeded payments and their sum per link, for the given links of one merchant: counted on the links'
 * complete sessions, each paid by exactly one succeeded payment of its amount (lib/payments/pay.ts), so an
 * index-only scan of the sessions answers without a join to the payments.
 */
export async function sumSalesOfPaymentLinks(
  database: Db,
  merchantId: string,
  linkIds: string[],
): Promise<Map<string, LinkSales>> {
  const rows = await database.$queryRaw<unknown[]>`
    SELECT "payment_link_id" AS link_id, count(*) AS payments, sum("amount")::bigint AS volume
    FROM "checkout_sessions"
    WHERE "merchant_id" = ${merchantId} AND "status" = 'complete' AND "payment_link_id" = ANY(${linkIds})
    GROUP BY "payment_link_id"`;
  return new Map(
    salesRows.parse(rows).map((row) => [row.link_id, { payments: Number(row.payments), volume: Number(row.volume) }]),
  );
}
