import { z } from 'zod';
import { sql, type Db } from '@/lib/db';

// Every query on api_keys. The lookup by hash runs for a request whose key is not in memory
// (lib/api-keys/service.ts): one prepared statement.

export async function insertApiKey(
  database: Db,
  key: { id: string; merchantId: string; hash: string; prefix: string; name: string | null; scopes: string[] },
) {
  return database.apiKey.create({ data: key });
}

const activeKeyRow = z.object({
  id: z.string(),
  merchantId: z.string(),
  scopes: z.array(z.string()),
  hash: z.string(),
  lastUsedAt: z.date().nullable(),
  clockOffsetSeconds: z.number().int(),
});

export type ActiveApiKeyRow = z.infer<typeof activeKeyRow>;

// with its merchant's test clock offset (lib/test-clocks): the request runs on the connection's clock
const FIND_ACTIVE_API_KEY =
  'SELECT k."id", k."merchant_id" AS "merchantId", k."scopes", k."hash", k."last_used_at" AS "lastUsedAt", m."clock_offset_seconds" AS "clockOffsetSeconds" FROM "api_keys" AS k JOIN "merchants" AS m ON m."id" = k."merchant_id" WHERE k."hash" = $1 AND k."revoked_at" IS NULL';

/** The unrevoked key with this hash, or undefined. */
export async function findActiveApiKeyByHash(database: Db, hash: string): Promise<ActiveApiKeyRow | undefined> {
  const [row] = await sql<object>(database, 'find-active-api-key', FIND_ACTIVE_API_KEY, [hash]);
  return row === undefined ? undefined : activeKeyRow.parse(row);
}

export async function updateApiKeyLastUsed(database: Db, id: string, at: Date): Promise<void> {
  await database.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
}

/** Revokes the key if it is still active (and the merchant's, when given); true when this call revoked it. */
export async function markApiKeyRevoked(database: Db, id: string, at: Date, merchantId?: string): Promise<boolean> {
  const { count } = await database.apiKey.updateMany({
    where: { id, revokedAt: null, ...(merchantId ? { merchantId } : {}) },
    data: { revokedAt: at },
  });
  return count === 1;
}

/** Of these keys, the ids of those unrevoked that have `scope`. */
export async function findActiveKeyIdsWithScope(database: Db, ids: string[], scope: string): Promise<string[]> {
  const keys = await database.apiKey.findMany({
    where: { id: { in: ids }, revokedAt: null, scopes: { has: scope } },
    select: { id: true },
  });
  return keys.map((key) => key.id);
}

/** Newest first, revoked ones included. */
export async function findApiKeys(database: Db, merchantId: string) {
  return database.apiKey.findMany({ where: { merchantId }, orderBy: { createdAt: 'desc' } });
}

export async function countApiKeys(database: Db, merchantId: string): Promise<number> {
  return database.apiKey.count({ where: { merchantId } });
}
