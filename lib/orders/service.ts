import type { Db } from '@/lib/db';

/** unpaid or paid: whether any session of the order has been paid. */
export async function getOrderStatus(database: Db, orderId: string): Promise<'unpaid' | 'paid'> {
  const order = await database.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } });
  return order.status;
}
