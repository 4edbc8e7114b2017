import { randomBytes } from 'node:crypto';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES } from '@/lib/api-keys/scopes';
import { connectionContext } from '@/lib/core/context';
import { inTransaction, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { findUserByEmail } from '@/lib/users/repository';
import { createUser } from '@/lib/users/service';
import { countMerchants, findOldestMerchant, lockDemoSeed } from './repository';
import { normalizeHost } from './hosts';
import { approveWebsite, createMerchant } from './service';

export const DEMO_EMAIL = 'demo@example.com';
const DEMO_HOSTS = ['localhost:3000', 'localhost:4000', 'shop.example.com'];

export type SeedResult = { merchant_id: string; email: string; password?: string; api_key?: string; created: boolean };

/**
 * The hosts SANDBOX_APPROVED_WEBSITES names (`host[:port]`, comma-separated; `sandbox-payments start
 * --approved-website` and `npm start --approved-website` add to it), each in its canonical form. A value that is
 * not a host throws, naming it: the server refuses to start rather than run without a website a CI job needs.
 */
export function configuredWebsites(setting = env().SANDBOX_APPROVED_WEBSITES): string[] {
  const hosts = (setting ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return [
    ...new Set(
      hosts.map((host) => {
        const normalized = normalizeHost(host);
        if (!normalized)
          throw new Error(
            `SANDBOX_APPROVED_WEBSITES: ${JSON.stringify(host)} is not a host: give hostname[:port], e.g. shop.example.com or localhost:4000 (no scheme, path or wildcard)`,
          );
        return normalized;
      }),
    ),
  ];
}

/**
 * First start with an empty database: a demo merchant (three approved websites, all methods, automatic
 * refunds), its dashboard user and a full-scope key. Under an advisory lock, so two processes starting
 * at once seed once. The password and key are returned only when made. On every start, the demo merchant
 * approves `websites` (configuredWebsites): added to its own, never removed.
 */
export async function seedDemo(database: Db, websites: string[] = configuredWebsites()): Promise<SeedResult> {
  return inTransaction(database, async (tx) => {
    await lockDemoSeed(tx);
    const seeded = await findOrCreateDemo(tx);
    // approving a website reads no time: the wall clock stands in for the merchant's
    const demo = connectionContext(tx, seeded.merchant_id, 0);
    for (const host of websites) await approveWebsite(demo, host);
    return seeded;
  });
}

async function findOrCreateDemo(tx: Db): Promise<SeedResult> {
  const existing = await findUserByEmail(tx, DEMO_EMAIL);
  if (existing) return { merchant_id: existing.merchantId, email: DEMO_EMAIL, created: false };
  if ((await countMerchants(tx)) > 0) {
    const first = await findOldestMerchant(tx);
    return { merchant_id: first.id, email: DEMO_EMAIL, created: false };
  }
  const merchant = await createMerchant(tx, { name: 'Demo Shop', hosts: DEMO_HOSTS });
  const password = randomBytes(9).toString('base64url');
  await createUser(tx, { merchantId: merchant.id, email: DEMO_EMAIL, password });
  // a new merchant's test clock is at zero
  const key = await createApiKey(connectionContext(tx, merchant.id, 0), [...SCOPES], {
    key: env().SANDBOX_API_KEY || undefined,
    name: 'Demo key',
  });
  return { merchant_id: merchant.id, email: DEMO_EMAIL, password, api_key: key.key, created: true };
}
