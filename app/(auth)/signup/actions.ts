'use server';

import { headers } from 'next/headers';
import { signUp } from '@/lib/auth/sign-up';
import { db } from '@/lib/db';
import type { FormState } from '@/lib/dashboard/form-state';
import { failed, field } from '@/lib/dashboard/form-state';
import { clientAddressOf } from '@/lib/server/client-address';
import { minutesToWait } from '@/lib/throttles/wording';

export type SignUpField = 'businessName' | 'email' | 'password';

/**
 * Creates the merchant and its user. The form then signs in through next-auth with what was typed, so
 * the password crosses the wire once per step and is never sent back: refusals return the other fields only.
 */
export async function signUpAction(formData: unknown): Promise<FormState<SignUpField>> {
  // a server action can be called by anyone with anything: only the form's FormData is understood
  if (!(formData instanceof FormData)) return failed('Fill in the form and try again.');
  const input = { businessName: field(formData, 'businessName'), email: field(formData, 'email'), password: field(formData, 'password') };
  const outcome = await signUp(await db(), input, clientAddressOf(await headers()));
  if (!outcome.ok) {
    if ('reason' in outcome) return failed(`Too many accounts were created from your network. Try again in ${minutesToWait(outcome.retryAfterSeconds)}.`);
    return { status: 'error', fieldErrors: outcome.fieldErrors };
  }
  return { status: 'ok', message: 'Account created.' };
}
