import type { Db } from '@/lib/db';

// Queries on api_keys. (Started by the payments refactor for Home's checklist; the rest of the resource's
// queries belong here too.)

export async function countApiKeys(database: Db, merchantId: string): Promise<number> {
  return database.apiKey.count({ where: { merchantId } });
}
