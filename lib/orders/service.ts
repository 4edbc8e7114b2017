import type { Db } from '@/lib/db';
import { findOrderStatus } from './repository';

/** unpaid or paid: whether any session of the order has been paid. */
export async function getOrderStatus(database: Db, orderId: string): Promise<'unpaid' | 'paid'> {
  const order = await findOrderStatus(database, orderId);
  return order.status;
}
