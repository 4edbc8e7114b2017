import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';

type OrderRow = { id: string; status: 'unpaid' | 'paid' };

/**
 * The merchant's order for this reference, made on first use. One statement, so two requests with a
 * new reference at once make one order: the second waits on the unique index and then reads the first's.
 */
export async function findOrCreateOrder(tx: Db, merchantId: string, reference: string): Promise<OrderRow> {
  const rows = await tx.$queryRaw<OrderRow[]>`
    INSERT INTO "orders" ("id", "merchant_id", "reference") VALUES (${newId('order')}, ${merchantId}, ${reference})
    ON CONFLICT ("merchant_id", "reference") DO UPDATE SET "reference" = EXCLUDED."reference"
    RETURNING "id", "status"::text AS "status"`;
  return rows[0];
}

/** unpaid or paid: whether any session of the order has been paid. */
export async function getOrderStatus(database: Db, orderId: string): Promise<OrderRow['status']> {
  const order = await database.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } });
  return order.status;
}
