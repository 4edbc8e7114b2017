'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { createKeyFromDashboard, revokeKeyFromDashboard } from '@/lib/dashboard/api-keys';
import { field, type FormState } from '@/lib/dashboard/form-state';

/** Answers with the new key, once: only its hash is stored. */
export async function createKeyAction(_state: FormState<'scopes'>, formData: FormData): Promise<FormState<'scopes'>> {
  const { merchantId } = await requireMerchant();
  const scopes = formData.getAll('scopes').filter((value): value is string => typeof value === 'string');
  const state = await createKeyFromDashboard(await db(), merchantId, scopes);
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function revokeKeyAction(_state: FormState, formData: FormData): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const state = await revokeKeyFromDashboard(await db(), merchantId, field(formData, 'keyId'));
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
