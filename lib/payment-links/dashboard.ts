import type { Db } from '@/lib/db';
import type { Prisma } from '@/lib/generated/prisma/client';

// What the dashboard lists: a merchant's links, and the payments made through each (a payment's
// checkout session remembers the link it came from). Every query is scoped by the merchant.

export async function pageOfPaymentLinks(database: Db, merchantId: string, page: { skip: number; take: number }) {
  const where = { merchantId };
  const [total, rows] = await Promise.all([
    database.paymentLink.count({ where }),
    database.paymentLink.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}

/** One page of the attempts (succeeded and failed) made through one link, newest first. */
export async function pageOfPaymentLinkPayments(
  database: Db,
  merchantId: string,
  linkId: string,
  page: { skip: number; take: number },
) {
  const where: Prisma.PaymentWhereInput = { merchantId, checkoutSession: { paymentLinkId: linkId } };
  const [total, rows] = await Promise.all([
    database.payment.count({ where }),
    database.payment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}

export type LinkSales = { payments: number; volume: number };

/** Succeeded payments and their sum per link, for the given links of one merchant. */
export async function salesOfPaymentLinks(
  database: Db,
  merchantId: string,
  linkIds: string[],
): Promise<Map<string, LinkSales>> {
  if (linkIds.length === 0) return new Map();
  const rows = await database.$queryRaw<{ link_id: string; payments: bigint; volume: bigint }[]>`
    SELECT s."payment_link_id" AS link_id, count(*) AS payments, sum(p."amount") AS volume
    FROM "payments" p JOIN "checkout_sessions" s ON s."id" = p."checkout_session_id"
    WHERE p."merchant_id" = ${merchantId} AND p."status" = 'succeeded' AND s."payment_link_id" = ANY(${linkIds})
    GROUP BY s."payment_link_id"`;
  return new Map(rows.map((row) => [row.link_id, { payments: Number(row.payments), volume: Number(row.volume) }]));
}
