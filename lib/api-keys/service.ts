import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '@/lib/core/context';
import { errors } from '@/lib/core/errors';
import { wallClock } from '@/lib/core/clock';
import { db, type Db } from '@/lib/db';
import { everyProcessHasHeard } from '@/lib/db/change-notices';
import { NotifiedCache } from '@/lib/db/notified-cache';
import { newId, randomBase62 } from '@/lib/core/ids';
import { secrets } from '@/lib/secrets';
import {
  type ActiveApiKeyRow,
  findActiveApiKeyByHash,
  findActiveKeyIdsWithScope,
  findApiKeys,
  insertApiKey,
  markApiKeyRevoked,
  updateApiKeyLastUsed,
} from './repository';
import type { Scope } from './scopes';

export const API_KEY_PATTERN = /^sk_sandbox_[0-9A-Za-z]{32}$/;

// The HMAC of the keys seen lately, so that a request does not compute it again (it was 1 % of a GET's CPU).
// Kept small: a caller trying many keys only pushes the oldest out.
const recentHashes = new Map<string, string>();
const RECENT_HASHES = 1000;

export function hashApiKey(key: string): string {
  const known = recentHashes.get(key);
  if (known !== undefined) return known;
  const hash = createHmac('sha256', secrets().apiKeyPepper).update(key).digest('hex');
  if (recentHashes.size >= RECENT_HASHES) recentHashes.delete(recentHashes.keys().next().value!);
  recentHashes.set(key, hash);
  return hash;
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
  context: RequestContext,
  scopes: Scope[],
  options: { key?: string; name?: string | null } = {},
): Promise<CreatedApiKey> {
  const { db: database, merchantId } = context;
  const fullKey = options.key ?? `sk_sandbox_${randomBase62(32)}`;
  if (!API_KEY_PATTERN.test(fullKey))
    throw errors.parameterInvalid(
      'an API key must look like sk_sandbox_ followed by 32 letters or digits',
      'key',
      'An API key starts with sk_sandbox_ and has 32 letters or digits after it.',
    );
  const row = await insertApiKey(database, {
    id: newId('apiKey'),
    merchantId,
    hash: hashApiKey(fullKey),
    prefix: displayPrefix(fullKey),
    name: options.name || null,
    scopes: [...new Set(scopes)],
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

/** clockOffsetSeconds: the merchant's test clock (lib/test-clocks), as of when the key was read. */
export type AuthenticatedKey = { id: string; merchantId: string; scopes: string[]; clockOffsetSeconds: number };

// Active keys by hash, in memory: every API request needs its key, and a revoked or changed key is
// forgotten by every process within a second (lib/db/notified-cache.ts). Unknown keys are not kept, so a
// new key works at once.
const activeKeys = new NotifiedCache<ActiveApiKeyRow>();

/** The active key for this secret, or null. Looked up by its HMAC, then compared in constant time. */
export async function findActiveApiKey(key: string): Promise<AuthenticatedKey | null> {
  const hash = hashApiKey(key);
  const row = await activeKeys.read(
    hash,
    async () => findActiveApiKeyByHash(await db(), hash),
    // a merchant's change (its test clock advancing) makes the joined offset stale
    (found) => [`api_key:${found.id}`, `merchant:${found.merchantId}`],
  );
  if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
  touchLastUsed(row);
  return { id: row.id, merchantId: row.merchantId, scopes: row.scopes, clockOffsetSeconds: row.clockOffsetSeconds };
}

/** This process changed the merchant (its test clock): its keys are read again, without waiting for the notice. */
export function forgetKeysOfMerchant(merchantId: string): void {
  activeKeys.forget(`merchant:${merchantId}`);
}

/** last_used_at at minute precision: one write a minute per key, not one per request. */
function touchLastUsed(row: ActiveApiKeyRow): void {
  // the real time, not the merchant's test clock: it is read before the request has a context
  const now = wallClock();
  if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < 60_000) return;
  // the cached row remembers the write, so the next request of the minute does not repeat it
  row.lastUsedAt = now;
  void db()
    .then((client) => updateApiKeyLastUsed(client, row.id, row.lastUsedAt!))
    .catch(() => {});
}

/** Revokes one of the merchant's keys; false when it has no active key of that id. */
export async function revokeApiKey(context: RequestContext, id: string): Promise<boolean> {
  return revokeKey(context.db, id, context.merchantId);
}

/** The operator's revoke (the sandbox CLI), whichever merchant holds the key. */
export async function revokeAnyApiKey(database: Db, id: string): Promise<boolean> {
  return revokeKey(database, id);
}

async function revokeKey(database: Db, id: string, merchantId?: string): Promise<boolean> {
  const revoked = await markApiKeyRevoked(database, id, wallClock(), merchantId);
  // other processes hear of it from the trigger's notice; this one need not wait for it
  activeKeys.forget(`api_key:${id}`);
  // A revoked key stops when this returns, on every process: wait out the bound on how late a notice can
  // be heard (under a second). Inside a transaction the change is not committed yet: nothing to wait for.
  if (revoked && '$disconnect' in database) await everyProcessHasHeard();
  return revoked;
}

/** Of these keys, those still active and holding `scope`, read from the database (what an open event stream checks). */
export async function keysWithScope(ids: string[], scope: Scope): Promise<string[]> {
  return findActiveKeyIdsWithScope(await db(), ids, scope);
}

export async function listApiKeys(context: RequestContext) {
  return findApiKeys(context.db, context.merchantId);
}
