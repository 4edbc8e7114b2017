import type { Db } from '@/lib/db';

// Every query on orders but their creation, which is one statement with the checkout session's (the
// checkout-sessions repository), and their payment, which is one statement with the payment's (the payments
// repository). An order is paid once: that statement's conditional UPDATE of its row says so, and a partial
// unique index on payments backs the rule.

export async function findOrderStatus(database: Db, orderId: string) {
  return database.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } });
}
