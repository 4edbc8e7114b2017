import type { Db } from '@/lib/db';
import { NotifiedCache } from '@/lib/db/notified-cache';
import { findMerchantRules, type MerchantRules } from './repository';

// What a /v1 request checks of its merchant (approved hosts, payment methods), in memory and forgotten by
// every process within a second of a change (lib/db/notified-cache.ts): a request that reads it a moment
// before the change lands is indistinguishable from one that arrived a moment earlier. Decisions that must
// see the change itself read the row in their own transaction instead (the refund policy, when a refund
// is approved: lib/refunds/service.ts).

export type { MerchantRules };

const rules = new NotifiedCache<MerchantRules>();

/** Transactions that changed a merchant's settings: they read their own writes, never the cache's. */
const changedIn = new WeakSet<object>();

/** The merchant's approved hosts and methods; throws when there is no such merchant. */
export async function merchantRules(database: Db, merchantId: string): Promise<MerchantRules> {
  if (changedIn.has(database)) return findMerchantRules(database, merchantId);
  const found = await rules.read(
    merchantId,
    () => findMerchantRules(database, merchantId),
    () => [`merchant:${merchantId}`],
  );
  return found!;
}

/**
 * Called by every write to a merchant's settings. Other processes learn of it from the trigger's notice
 * when it commits; this one forgets at once, and a transaction that wrote reads through itself from then on.
 */
export function settingsChanged(database: Db, merchantId: string): void {
  if (!('$disconnect' in database)) changedIn.add(database);
  rules.forget(`merchant:${merchantId}`);
}
