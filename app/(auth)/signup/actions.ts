'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { signUp } from '@/lib/auth/sign-up';
import { db } from '@/lib/db';
import type { FormState } from '@/lib/dashboard/form-state';
import { field, UNREADABLE_FORM } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';
import { clientAddressOf } from '@/lib/server/client-address';
import { parseActionArguments } from '@/lib/server-actions/arguments';

export type SignUpField = 'businessName' | 'email' | 'password';

/**
 * Creates the merchant and its user. The form then signs in through next-auth with what was typed, so
 * the password crosses the wire once per step and is never sent back: refusals return the other fields only.
 */
export async function signUpAction(...args: [formData: FormData]): Promise<FormState<SignUpField>> {
  const [formData] = parseActionArguments(args, z.instanceof(FormData)) ?? [];
  if (!formData) return UNREADABLE_FORM;
  const input = {
    businessName: field(formData, 'businessName'),
    email: field(formData, 'email'),
    password: field(formData, 'password'),
  };
  const outcome = await signUp(await db(), input, clientAddressOf(await headers()));
  if (!outcome.ok) {
    if ('refusal' in outcome) return toFormState(outcome.refusal, {});
    return { status: 'error', fieldErrors: outcome.fieldErrors };
  }
  return { status: 'ok', message: 'Account created.' };
}
