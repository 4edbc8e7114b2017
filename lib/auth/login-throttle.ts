import type { Db } from '@/lib/db';
import { clearHits, countHit, giveBackHit, takeHits, type Hit } from '@/lib/throttles/service';
import { throttles } from '@/lib/throttles/rules';

// Sign-in throttling. Guesses are refused per (address, e-mail) and per address, so a guesser is stopped
// where it guesses from. Per e-mail alone they are only slowed down: refusing there would let anyone lock
// an owner out of their account by typing wrong passwords for it. A successful sign-in clears the
// account's counts and gives its address back the point, so an office behind one address is not locked
// out by colleagues who typed their password right.

export type ThrottleKeys = { email: string; address: string | null };
export type SignInThrottle = { allowed: false; retryAfterSeconds: number } | { allowed: true; delayMs: number };

/** How long an attempt at an account under attack waits before its password is checked. */
export const SLOW_DOWN_MS_PER_GUESS = 500;
export const MAX_SLOW_DOWN_MS = 5_000;

function hitsOf({ email, address }: ThrottleKeys) {
  const account = email.trim().toLowerCase();
  const hits: { email: Hit; pair?: Hit; address?: Hit } = { email: { rule: throttles.signInPerEmail(), who: account } };
  if (address) {
    hits.pair = { rule: throttles.signInPerAddressAndEmail(), who: `${address} ${account}` };
    hits.address = { rule: throttles.signInPerAddress(), who: address };
  }
  return hits;
}

/** Counts an attempt; refused past the (address, e-mail) or the address limit, slowed past the e-mail's. */
export async function takeLoginAttempt(database: Db, keys: ThrottleKeys): Promise<SignInThrottle> {
  const hits = hitsOf(keys);
  const refusing = [hits.pair, hits.address].filter((hit): hit is Hit => hit !== undefined);
  const verdict = await takeHits(database, refusing);
  if (!verdict.allowed) return verdict;
  const overEmail = (await countHit(database, hits.email)).hits - hits.email.rule.limit;
  return { allowed: true, delayMs: overEmail > 0 ? Math.min(overEmail * SLOW_DOWN_MS_PER_GUESS, MAX_SLOW_DOWN_MS) : 0 };
}

/** After a successful sign-in: the account starts afresh everywhere and the address gets its point back. */
export async function forgiveLoginAttempt(database: Db, keys: ThrottleKeys): Promise<void> {
  const hits = hitsOf(keys);
  await clearHits(database, hits.email);
  if (hits.pair) await clearHits(database, hits.pair);
  if (hits.address) await giveBackHit(database, hits.address);
}
