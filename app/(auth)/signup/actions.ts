'use server';

import { signUp } from '@/lib/auth/sign-up';
import { db } from '@/lib/db';
import type { FormState } from '@/lib/dashboard/form-state';
import { field } from '@/lib/dashboard/form-state';

export type SignUpField = 'businessName' | 'email' | 'password';

/**
 * Creates the merchant and its user. The form then signs in through next-auth with what was typed, so
 * the password crosses the wire once per step and is never sent back: refusals return the other fields only.
 */
export async function signUpAction(formData: FormData): Promise<FormState<SignUpField>> {
  const input = { businessName: field(formData, 'businessName'), email: field(formData, 'email'), password: field(formData, 'password') };
  const outcome = await signUp(await db(), input);
  if (!outcome.ok) return { status: 'error', fieldErrors: outcome.fieldErrors };
  return { status: 'ok', message: 'Account created.' };
}
