'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { createKeyFromDashboard, revokeKeyFromDashboard, type ApiKeyField } from '@/lib/api-keys/dashboard-actions';
import {
  field,
  formDataOf,
  UNREADABLE_FORM,
  type FormActionArguments,
  type FormState,
} from '@/lib/dashboard/form-state';

/** Answers with the new key, once: only its hash is stored. */
export async function createKeyAction(...args: FormActionArguments<ApiKeyField>): Promise<FormState<ApiKeyField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const scopes = formData.getAll('scopes').filter((value): value is string => typeof value === 'string');
  const state = await createKeyFromDashboard(context, { name: field(formData, 'name'), scopes });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function revokeKeyAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await revokeKeyFromDashboard(context, field(formData, 'keyId'));
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
