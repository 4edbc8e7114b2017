import type { Db } from '@/lib/db';

// Queries on webhook endpoints, deliveries and attempts. (Started by the payments refactor for Home's
// checklist; the rest of the resource's queries belong here too.)

/** Endpoints not deleted. */
export async function countWebhookEndpoints(database: Db, merchantId: string): Promise<number> {
  return database.webhookEndpoint.count({ where: { merchantId, deletedAt: null } });
}
