import { z } from 'zod';
import { inTransaction, Prisma, type Db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { createUser } from '@/lib/users/service';
import { MAX_PASSWORD_LENGTH } from './authorize';

// Sign-up: a merchant (its sandbox connection: every payment method, automatic refunds, no websites
// yet) and its first dashboard user, in one transaction, so there is never one without the other.

export const MIN_PASSWORD_LENGTH = 10;

export const signUpInput = z.object({
  businessName: z.string().trim().min(1, 'Enter your business name.').max(100, 'Keep the business name under 100 characters.'),
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
  | { ok: false; fieldErrors: Partial<Record<SignUpFields, string>> };

export async function signUp(database: Db, input: SignUpInput): Promise<SignUpOutcome> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<SignUpFields, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SignUpFields;
      fieldErrors[field] ??= issue.message;
    }
    return { ok: false, fieldErrors };
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
      return { ok: false, fieldErrors: { email: 'An account with this e-mail already exists. Sign in instead.' } };
    }
    throw error;
  }
}
