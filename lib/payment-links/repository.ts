import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { metadataField, METADATA_MAX_KEYS, type Metadata } from '@/lib/api/metadata';
import { NEWEST_FIRST } from '@/lib/api/pagination';
import { sql, type Db } from '@/lib/db';
import { countLimit } from '@/lib/db/page';
import type { PaymentLink, Prisma } from '@/lib/generated/prisma/client';
import { Currency, PaymentMethod } from '@/lib/generated/prisma/enums';
import {
  CLAIM_OUTCOME,
  CLAIM_WITH_ANSWER_VALUES,
  claimWithAnswer,
  type ClaimOutcome,
  type ClaimWithAnswer,
  insertRowClaimingKey,
  runClaimingStatement,
} from '@/lib/idempotency/repository';

// Every query on payment_links. Taking the next order number is one conditional UPDATE (see
// checkout.ts): concurrent customers each get their own n, and a deactivated link refuses.

export type NewPaymentLink = Omit<PaymentLink, 'orderCount' | 'metadata'> & { metadata: Metadata };

export async function insertPaymentLink(database: Db, link: NewPaymentLink) {
  return database.paymentLink.create({ data: link });
}

/** insertPaymentLink with the key's claim (insertRowClaimingKey), in one statement. */
export async function insertPaymentLinkClaimingKey(database: Db, link: NewPaymentLink, claim: ClaimWithAnswer) {
  return insertRowClaimingKey(
    database,
    'payment_links',
    [
      ['id', link.id, 'text'],
      ['merchant_id', link.merchantId, 'text'],
      ['name', link.name, 'text'],
      ['description', link.description, 'text'],
      ['amount', link.amount, 'int'],
      ['currency', link.currency, '"Currency"'],
      ['payment_methods', link.paymentMethods, '"PaymentMethod"[]'],
      ['after_payment_url', link.afterPaymentUrl, 'text'],
      ['active', link.active, 'boolean'],
      ['metadata', JSON.stringify(link.metadata), 'jsonb'],
      ['quantity_minimum', link.quantityMinimum, 'int'],
      ['quantity_maximum', link.quantityMaximum, 'int'],
      ['created_at', link.createdAt, 'timestamptz'],
      ['updated_at', link.updatedAt, 'timestamptz'],
    ],
    claim,
  );
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
// reads its result) and merges its metadata there, so two concurrent updates with different keys both keep
// theirs (a merge of a value read earlier would lose one); `changed` writes that merge and the other fields,
// only while the merged metadata keeps within the key limit (Stripe's rule), so an update over it changes
// nothing. `$(n)` is the n-th of updateValues' placeholders; `gate` joins what else the UPDATE needs.
const lockedLink = ($: (n: number) => string) => `locked AS (
    SELECT "id", (("metadata" || ${$(6)}::jsonb) - ${$(7)}::text[]) AS "metadata" FROM "payment_links"
    WHERE "id" = ${$(1)}::text FOR UPDATE
  )`;
const changedLink = ($: (n: number) => string, gate = '') => `changed AS (
    UPDATE "payment_links" SET
      "name" = coalesce(${$(2)}::text, "name"),
      "description" = CASE WHEN ${$(3)}::boolean THEN ${$(4)}::text ELSE "description" END,
      "active" = coalesce(${$(5)}::boolean, "active"),
      "metadata" = l."metadata",
      "updated_at" = coalesce(${$(8)}::timestamptz, "payment_links"."updated_at")
    FROM locked AS l ${gate}
    WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= ${METADATA_MAX_KEYS}
    RETURNING ${linkColumns('payment_links')}
  )`;

const plain = (n: number) => `$${n}`;
const UPDATE_PAYMENT_LINK = `WITH ${lockedLink(plain)}, ${changedLink(plain)} SELECT * FROM changed`;

/**
 * Where the answer an update stores has the link's metadata, which only its statement knows (merged): a value
 * no request can contain, made at random for the process, so that only this place is replaced.
 */
export const METADATA_IN_ANSWER = `metadata-${randomBytes(16).toString('hex')}`;

// The same change claiming the request's Idempotency-Key ($1–$6) with its answer, in one statement: the stored
// answer ($6) gets the merged metadata of `locked` in place of METADATA_IN_ANSWER, so the answer is exactly
// the link this update left, and the UPDATE runs FROM "claimed". An update past the key limit undoes the
// statement, so the key stays free. updateValues' after the claim's, then the marker ($15).
const afterClaim = (n: number) => `$${CLAIM_WITH_ANSWER_VALUES + n}`;
const UPDATE_PAYMENT_LINK_CLAIMING_KEY = `WITH ${lockedLink(afterClaim)},
  ${claimWithAnswer(`replace($6::text, to_json($15::text)::text, l."metadata"::text)`, 'FROM locked AS l')},
  ${changedLink(afterClaim, ', "claimed"')}
  SELECT ${CLAIM_OUTCOME.columns}, ch.*,
    CASE WHEN c."id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changed) THEN abort_statement('metadata_limit') END AS "undone"
  FROM ${CLAIM_OUTCOME.from} LEFT JOIN changed AS ch ON true`;

/**
 * updatePaymentLinkById, claiming the request's key with its answer in the same statement: the claim's outcome
 * and the changed link, or 'metadata_limit' (nothing written, the key free) when the merged metadata would
 * have more keys than allowed.
 */
export async function updatePaymentLinkClaimingKey(
  database: Db,
  id: string,
  changes: PaymentLinkChanges,
  claim: ClaimWithAnswer,
): Promise<{ outcome: ClaimOutcome; link: PaymentLink | undefined } | 'metadata_limit'> {
  const result = await runClaimingStatement(
    database,
    {
      name: 'update-payment-link-claiming-key',
      text: UPDATE_PAYMENT_LINK_CLAIMING_KEY,
      values: [...updateValues(id, changes), METADATA_IN_ANSWER],
    },
    claim,
    { refusals: ['metadata_limit'] },
  );
  if ('refused' in result) return result.refused;
  const link = paymentLinkRow.safeParse(result.row);
  return { outcome: result.outcome, link: link.success ? link.data : undefined };
}

function updateValues(id: string, changes: PaymentLinkChanges): unknown[] {
  return [
    id,
    changes.name ?? null,
    changes.description !== undefined,
    changes.description ?? null,
    changes.active ?? null,
    JSON.stringify(changes.metadata.set),
    changes.metadata.remove,
    changes.updatedAt,
  ];
}

/**
 * Changes a link in one statement, merging its metadata; null (nothing changed) when the merged metadata
 * would have more keys than allowed.
 */
export async function updatePaymentLinkById(
  database: Db,
  id: string,
  changes: PaymentLinkChanges,
): Promise<PaymentLink | null> {
  const rows = await sql(database, 'update-payment-link', UPDATE_PAYMENT_LINK, updateValues(id, changes));
  return rows.length > 0 ? paymentLinkRow.parse(rows[0]) : null;
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
