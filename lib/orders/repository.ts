import type { Db } from '@/lib/db';

// Every query on orders. An order is paid once: its row is locked before it is read to be paid, and a
// partial unique index on payments backs the rule.

/** Locks the order's row for the caller's transaction, then reads it (two sessions of one order pay once). */
export async function lockOrderForPayment(tx: Db, orderId: string) {
  await tx.$executeRaw`SELECT 1 FROM "orders" WHERE "id" = ${orderId} FOR UPDATE`;
  return tx.order.findUniqueOrThrow({ where: { id: orderId } });
}

export async function markOrderPaid(tx: Db, orderId: string, paymentId: string): Promise<void> {
  await tx.order.update({ where: { id: orderId }, data: { status: 'paid', paymentId } });
}

export async function findOrderStatus(database: Db, orderId: string) {
  return database.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } });
}
