import { errors } from '@/lib/api/errors';
import { NEWEST_FIRST, paginate } from '@/lib/api/pagination';
import type { Db } from '@/lib/db';
import { isId } from '@/lib/ids';
import { serializePayment } from './serialize';

export async function getPaymentOrThrow(database: Db, merchantId: string, id: string) {
  const payment = isId('payment', id) ? await database.payment.findFirst({ where: { id, merchantId } }) : null;
  if (!payment) throw errors.resourceMissing(`No such payment: '${id}'`, 'id');
  return payment;
}

export async function listPayments(
  database: Db,
  merchantId: string,
  query: { limit: number; starting_after?: string; order_reference?: string; status?: 'succeeded' | 'failed' },
) {
  const base = {
    merchantId,
    ...(query.order_reference !== undefined ? { orderReference: query.order_reference } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) =>
      database.payment.findFirst({ where: { id, merchantId }, select: { id: true, createdAt: true } }),
    findPage: ({ where, take }) =>
      database.payment.findMany({ where: { AND: [base, where] }, orderBy: NEWEST_FIRST, take }),
    serialize: serializePayment,
  });
}
