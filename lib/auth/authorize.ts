import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Db } from '@/lib/db';
import { verifyUserPassword } from '@/lib/users/service';
import { forgiveLoginAttempt, takeLoginAttempt } from './login-throttle';

// The check behind the sign-in form: throttle first, then the password. The password is only ever
// compared, never logged or returned.

/** bcrypt reads at most 72 bytes; the bound keeps absurd inputs from costing anything. */
export const MAX_PASSWORD_LENGTH = 200;

export const signInInput = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});

export type SignedInUser = { id: string; email: string; merchantId: string; sessionVersion: number };

export type SignInOutcome =
  | { ok: true; user: SignedInUser }
  | { ok: false; reason: 'invalid_credentials' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export async function authorizeSignIn(
  database: Db,
  credentials: unknown,
  clientAddress: string | null,
): Promise<SignInOutcome> {
  const parsed = signInInput.safeParse(credentials);
  if (!parsed.success) return { ok: false, reason: 'invalid_credentials' };
  const keys = { email: parsed.data.email, address: clientAddress };

  const verdict = await takeLoginAttempt(database, keys);
  if (!verdict.allowed) return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds };
  if (verdict.delayMs > 0) await sleep(verdict.delayMs);

  const user = await verifyUserPassword(database, parsed.data.email, parsed.data.password);
  if (!user) return { ok: false, reason: 'invalid_credentials' };
  await forgiveLoginAttempt(database, keys);
  return {
    ok: true,
    user: { id: user.id, email: user.email, merchantId: user.merchantId, sessionVersion: user.sessionVersion },
  };
}

/** The message next-auth carries back to the sign-in form when we refuse for throttling. */
export const THROTTLED_PREFIX = 'throttled:';
