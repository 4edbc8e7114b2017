import type { Db } from '@/lib/db';
import type { Prisma } from '@/lib/generated/prisma/client';

// Queries on payments. (Started by the payment-links refactor, which needed these two.)

export async function findPaymentById(database: Db, id: string) {
  return database.payment.findUniqueOrThrow({ where: { id } });
}

/** A page of the attempts (succeeded and failed) made through one payment link, newest first; and their total. */
export async function countAndFindPaymentsOfLink(
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
