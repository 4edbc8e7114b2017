'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { createKeyFromDashboard, revokeKeyFromDashboard, type ApiKeyField } from '@/lib/dashboard/api-keys';
import { advanceTestClockFromDashboard, type TestClockField } from '@/lib/dashboard/test-clock';
import {
  field,
  formDataOf,
  UNREADABLE_FORM,
  type FormActionArguments,
  type FormState,
} from '@/lib/dashboard/form-state';

/** Answers with the new key, once: only its hash is stored. */
export async function createKeyAction(...args: FormActionArguments<ApiKeyField>): Promise<FormState<ApiKeyField>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const scopes = formData.getAll('scopes').filter((value): value is string => typeof value === 'string');
  const state = await createKeyFromDashboard(await db(), merchantId, { name: field(formData, 'name'), scopes });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function revokeKeyAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await revokeKeyFromDashboard(await db(), merchantId, field(formData, 'keyId'));
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

/** Test clock: a preset button (+1 hour, +1 day) or the seconds typed, through the API's own service. */
export async function advanceTestClockAction(
  ...args: FormActionArguments<TestClockField>
): Promise<FormState<TestClockField>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const seconds = field(formData, 'preset') || field(formData, 'seconds');
  const state = await advanceTestClockFromDashboard(await db(), merchantId, seconds);
  // every page's times and session statuses move with the clock
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
