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
  advanceTestClockFromDashboard,
  previewAdvanceFromDashboard,
  type AdvancePreviewState,
  type TestClockField,
} from '@/lib/test-clocks/dashboard-actions';

/** A preset (+1 hour, +1 day) or the amount typed: what advancing that far will do, before anything moves. */
export async function previewAdvanceAction(
  ...args: [previous: AdvancePreviewState, formData: FormData]
): Promise<AdvancePreviewState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return previewAdvanceFromDashboard(context, {
    preset: field(formData, 'preset'),
    amount: field(formData, 'amount'),
    unit: field(formData, 'unit'),
  });
}

/** The confirmed advance, through the API's own service. */
export async function advanceTestClockAction(
  ...args: FormActionArguments<TestClockField>
): Promise<FormState<TestClockField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await advanceTestClockFromDashboard(context, field(formData, 'seconds'));
  // every page's times, its banner and session statuses move with the clock
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
