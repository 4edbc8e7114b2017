'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
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
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateBusinessName(context, field(formData, 'name')));
}

export async function addWebsiteAction(...args: FormActionArguments<'host'>): Promise<FormState<'host'>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await addWebsite(context, field(formData, 'host')));
}

export async function removeWebsiteAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await removeApprovedWebsite(context, field(formData, 'host')));
}

export async function savePaymentMethodsAction(...args: FormActionArguments<'methods'>): Promise<FormState<'methods'>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const chosen = formData.getAll('methods').filter((value): value is string => typeof value === 'string');
  return refreshed(await updatePaymentMethods(context, chosen));
}

export async function saveRefundPolicyAction(...args: FormActionArguments<'policy'>): Promise<FormState<'policy'>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateRefundPolicy(context, field(formData, 'policy')));
}

/** Every dashboard page draws its dates in this zone: the whole layout is refreshed. */
export async function saveTimeZoneAction(...args: FormActionArguments<'timeZone'>): Promise<FormState<'timeZone'>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await updateTimeZone(context, field(formData, 'timeZone')));
}
