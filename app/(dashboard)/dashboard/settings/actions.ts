'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { field, type FormState } from '@/lib/dashboard/form-state';
import { addWebsite, removeApprovedWebsite, updateBusinessName, updatePaymentMethods, updateRefundPolicy } from '@/lib/dashboard/settings';

// Settings of the signed-in merchant's connection. The merchant always comes from the session.

function refreshed<State extends FormState<string>>(state: State): State {
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function saveBusinessNameAction(_state: FormState<'name'>, formData: FormData) {
  const { merchantId } = await requireMerchant();
  return refreshed(await updateBusinessName(await db(), merchantId, field(formData, 'name')));
}

export async function addWebsiteAction(_state: FormState<'host'>, formData: FormData) {
  const { merchantId } = await requireMerchant();
  return refreshed(await addWebsite(await db(), merchantId, field(formData, 'host')));
}

export async function removeWebsiteAction(_state: FormState, formData: FormData) {
  const { merchantId } = await requireMerchant();
  return refreshed(await removeApprovedWebsite(await db(), merchantId, field(formData, 'host')));
}

export async function savePaymentMethodsAction(_state: FormState<'methods'>, formData: FormData) {
  const { merchantId } = await requireMerchant();
  const chosen = formData.getAll('methods').filter((value): value is string => typeof value === 'string');
  return refreshed(await updatePaymentMethods(await db(), merchantId, chosen));
}

export async function saveRefundPolicyAction(_state: FormState<'policy'>, formData: FormData) {
  const { merchantId } = await requireMerchant();
  return refreshed(await updateRefundPolicy(await db(), merchantId, field(formData, 'policy')));
}
