import { createHmac, timingSafeEqual } from 'node:crypto';
import { db, sql, type Db } from '@/lib/db';
import { newId, randomBase62 } from '@/lib/ids';
import { secrets } from '@/lib/secrets';
import type { Scope } from './scopes';

export const API_KEY_PATTERN = /^sk_sandbox_[0-9A-Za-z]{32}$/;

export function hashApiKey(key: string): string {
  return createHmac('sha256', secrets().apiKeyPepper).update(key).digest('hex');
}

/** What people see of a key: sk_sandbox_AbCd…wxyz */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 15)}…${key.slice(-4)}`;
}

export type CreatedApiKey = {
  id: string;
  key: string;
  name: string | null;
  scopes: Scope[];
  prefix: string;
  createdAt: Date;
};

/**
 * The full key is returned here and never again: only its HMAC is stored. `key` is for the seeded demo
 * key only; `name` is checked with apiKeyNameInput by the callers that take it from people.
 */
export async function createApiKey(
  database: Db,
  merchantId: string,
  scopes: Scope[],
  options: { key?: string; name?: string | null } = {},
): Promise<CreatedApiKey> {
  const fullKey = options.key ?? `sk_sandbox_${randomBase62(32)}`;
  if (!API_KEY_PATTERN.test(fullKey))
    throw new Error('an API key must look like sk_sandbox_ followed by 32 letters or digits');
  const row = await database.apiKey.create({
    data: {
      id: newId('apiKey'),
      merchantId,
      hash: hashApiKey(fullKey),
      prefix: displayPrefix(fullKey),
      name: options.name || null,
      scopes: [...new Set(scopes)],
    },
  });
  return {
    id: row.id,
    key: fullKey,
    name: row.name,
    scopes: row.scopes as Scope[],
    prefix: row.prefix,
    createdAt: row.createdAt,
  };
}

export type AuthenticatedKey = { id: string; merchantId: string; scopes: string[] };

/** The active key for this secret, or null. Looked up by its HMAC, then compared in constant time. */
export async function findActiveApiKey(key: string): Promise<AuthenticatedKey | null> {
  const hash = hashApiKey(key);
  // on every API request: one prepared statement (see sql), never a cache, so a revoked key stops at once
  const [row] = await sql<{ id: string; merchantId: string; scopes: string[]; hash: string; lastUsedAt: Date | null }>(
    await db(),
    'find-active-api-key',
    'SELECT "id", "merchant_id" AS "merchantId", "scopes", "hash", "last_used_at" AS "lastUsedAt" FROM "api_keys" WHERE "hash" = $1 AND "revoked_at" IS NULL',
    [hash],
  );
  if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
  touchLastUsed(row.id, row.lastUsedAt);
  return { id: row.id, merchantId: row.merchantId, scopes: row.scopes };
}

/** last_used_at at minute precision: one write a minute per key, not one per request. */
function touchLastUsed(id: string, lastUsedAt: Date | null): void {
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < 60_000) return;
  void db()
    .then((client) => client.apiKey.update({ where: { id }, data: { lastUsedAt: new Date() } }))
    .catch(() => {});
}

export async function revokeApiKey(database: Db, id: string, merchantId?: string): Promise<boolean> {
  const { count } = await database.apiKey.updateMany({
    where: { id, revokedAt: null, ...(merchantId ? { merchantId } : {}) },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

export async function listApiKeys(database: Db, merchantId: string) {
  return database.apiKey.findMany({ where: { merchantId }, orderBy: { createdAt: 'desc' } });
}
