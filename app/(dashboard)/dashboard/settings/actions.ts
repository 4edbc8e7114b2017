'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import {
  field,
  formDataOf,
  UNREADABLE_FORM,
  type FormActionArguments,
  type FormState,
} from '@/lib/dashboard/form-state';
import {
  addWebsite,
  removeApprovedWebsite,
  updateBusinessName,
  updatePaymentMethods,
  updateRefundPolicy,
  updateTimeZone,
} from '@/lib/merchants/dashboard-actions';

// Settings of the signed-in merchant's connection. The merchant always comes from the session.

function refreshed<State extends FormState<string>>(state: State): State {
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function saveBusinessNameAction(...args: FormActionArguments<'name'>): Promise<FormState<'name'>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateBusinessName(await db(), merchantId, field(formData, 'name')));
}

export async function addWebsiteAction(...args: FormActionArguments<'host'>): Promise<FormState<'host'>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await addWebsite(await db(), merchantId, field(formData, 'host')));
}

export async function removeWebsiteAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await removeApprovedWebsite(await db(), merchantId, field(formData, 'host')));
}

export async function savePaymentMethodsAction(...args: FormActionArguments<'methods'>): Promise<FormState<'methods'>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const chosen = formData.getAll('methods').filter((value): value is string => typeof value === 'string');
  return refreshed(await updatePaymentMethods(await db(), merchantId, chosen));
}

export async function saveRefundPolicyAction(...args: FormActionArguments<'policy'>): Promise<FormState<'policy'>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateRefundPolicy(await db(), merchantId, field(formData, 'policy')));
}

/** Every dashboard page draws its dates in this zone: the whole layout is refreshed. */
export async function saveTimeZoneAction(...args: FormActionArguments<'timeZone'>): Promise<FormState<'timeZone'>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateTimeZone(await db(), merchantId, field(formData, 'timeZone')));
}
