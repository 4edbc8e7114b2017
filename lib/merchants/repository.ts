import type { Db } from '@/lib/db';
import type { RefundPolicy } from '@/lib/generated/prisma/client';

// Queries on merchants and approved_websites. (Started by the payments refactor for the refund policy and
// Home's checklist; the rest of the resource's queries belong here too.)

/** automatic or manual: who authorizes the merchant's refunds. */
export async function getRefundPolicy(database: Db, merchantId: string): Promise<RefundPolicy> {
  const { refundPolicy } = await database.merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: { refundPolicy: true },
  });
  return refundPolicy;
}

export async function countApprovedWebsites(database: Db, merchantId: string): Promise<number> {
  return database.approvedWebsite.count({ where: { merchantId } });
}
