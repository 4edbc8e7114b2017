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
import { expireSessionFromDashboard } from '@/lib/checkout-sessions/dashboard-actions';

export async function expireSessionAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await expireSessionFromDashboard(context, field(formData, 'sessionId'));
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
