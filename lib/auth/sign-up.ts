import { z } from 'zod';
import { errors, type ApiError } from '@/lib/core/errors';
import { inTransaction, Prisma, type Db } from '@/lib/db';
import { businessNameInput, createMerchant } from '@/lib/merchants/service';
import { throttles } from '@/lib/throttles/rules';
import { takeHits } from '@/lib/throttles/service';
import { minutesToWait } from '@/lib/throttles/wording';
import { createUser } from '@/lib/users/service';
import { MAX_PASSWORD_LENGTH } from './authorize';

// Sign-up: a merchant (its sandbox connection: every payment method, automatic refunds, no websites
// yet) and its first dashboard user, in one transaction, so there is never one without the other.
// Anonymous and free, so it is throttled per client address: it writes rows, and its answer to a taken
// e-mail tells something about who has an account.

export const MIN_PASSWORD_LENGTH = 10;

export const signUpInput = z.object({
  businessName: businessNameInput,
  email: z.string().trim().toLowerCase().pipe(z.email('Enter an e-mail address like you@example.com.').max(254)),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`),
});

export type SignUpInput = z.input<typeof signUpInput>;
export type SignUpFields = keyof SignUpInput;

export type SignUpOutcome =
  | { ok: true; merchantId: string; userId: string; email: string }
  | { ok: false; fieldErrors: Partial<Record<SignUpFields, string>> }
  /** too many sign-ups from this client address lately: rate_limited, worded for the person signing up */
  | { ok: false; refusal: ApiError };

/**
 * A taken e-mail gets an answer that does not say an account exists: a stranger learns no more than that
 * this address cannot be used, and only a few times an hour.
 */
export const EMAIL_UNAVAILABLE = 'This e-mail cannot be used for a new account. If it is yours, sign in instead.';

export async function signUp(database: Db, input: SignUpInput, clientAddress: string | null): Promise<SignUpOutcome> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<SignUpFields, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SignUpFields;
      fieldErrors[field] ??= issue.message;
    }
    return { ok: false, fieldErrors };
  }
  if (clientAddress) {
    const verdict = await takeHits(database, [{ rule: throttles.signUpPerAddress(), who: clientAddress }]);
    if (!verdict.allowed)
      return {
        ok: false,
        refusal: errors.rateLimited(
          verdict.retryAfterSeconds,
          'Too many sign-ups from this client address; retry later',
          `Too many accounts were created from your network. Try again in ${minutesToWait(verdict.retryAfterSeconds)}.`,
        ),
      };
  }
  const { businessName, email, password } = parsed.data;
  try {
    return await inTransaction(database, async (tx) => {
      const merchant = await createMerchant(tx, { name: businessName });
      const user = await createUser(tx, { merchantId: merchant.id, email, password });
      return { ok: true as const, merchantId: merchant.id, userId: user.id, email: user.email };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return { ok: false, fieldErrors: { email: EMAIL_UNAVAILABLE } };
    }
    throw error;
  }
}
