import type { Db } from '@/lib/db';

// Every query on orders but their creation, which is one statement with the checkout session's (the
// checkout-sessions repository). An order is paid once: its row is locked before it is read to be paid,
// and a partial unique index on payments backs the rule.

/** Locks the order's row for the caller's transaction, then reads it (two sessions of one order pay once). */
export async function lockOrderForPayment(database: Db, orderId: string) {
  await database.$executeRaw`SELECT 1 FROM "orders" WHERE "id" = ${orderId} FOR UPDATE`;
  return database.order.findUniqueOrThrow({ where: { id: orderId } });
}

export async function markOrderPaid(database: Db, orderId: string, paymentId: string): Promise<void> {
  await database.order.update({ where: { id: orderId }, data: { status: 'paid', paymentId } });
}

export async function findOrderStatus(database: Db, orderId: string) {
  return database.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } });
}
