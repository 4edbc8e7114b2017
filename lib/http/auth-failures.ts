import { db } from '@/lib/db';
import { throttles } from '@/lib/throttles/rules';
import { takeHits } from '@/lib/throttles/service';
import { errors } from '@/lib/core/errors';

// Failed authentication per client address: past API_AUTH_FAILURES_PER_MINUTE, an address's failures get
// 429s instead of being counted again, so nobody can make us write without end (lib/http/auth.ts still serves
// a valid key from there). Counted in PostgreSQL,
// shared by every process; each process also remembers the refusals it has seen, so a refused address
// costs it no database work at all until its window ends. Requests with a correct key count nothing, so
// only an address that keeps failing is ever refused.

const MAX_REMEMBERED = 10_000;
const globalForBlocks = globalThis as unknown as { sandboxAuthBlocks?: Map<string, number> };
const blocked = (globalForBlocks.sandboxAuthBlocks ??= new Map<string, number>());

/** Throws 429 when this process already knows the address is over its limit. */
export function refuseBlockedAddress(address: string | null): void {
  if (!address) return;
  const until = blocked.get(address);
  if (until === undefined) return;
  if (until <= Date.now()) {
    blocked.delete(address);
    return;
  }
  throw errors.rateLimited(Math.ceil((until - Date.now()) / 1000));
}

/** Counts a failed authentication; throws 429 once the address is past its limit. */
export async function countAuthFailure(address: string | null): Promise<void> {
  if (!address) return;
  const verdict = await takeHits(await db(), [{ rule: throttles.apiAuthFailurePerAddress(), who: address }]);
  if (verdict.allowed) return;
  if (blocked.size >= MAX_REMEMBERED) forgetEndedBlocks();
  blocked.set(address, Date.now() + verdict.retryAfterSeconds * 1000);
  throw errors.rateLimited(verdict.retryAfterSeconds);
}

function forgetEndedBlocks(): void {
  const now = Date.now();
  for (const [address, until] of blocked) if (until <= now) blocked.delete(address);
  // still full of live blocks: the oldest go first, and PostgreSQL still refuses them
  for (const address of blocked.keys()) {
    if (blocked.size < MAX_REMEMBERED) break;
    blocked.delete(address);
  }
}
