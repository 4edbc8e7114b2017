'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { cancelFromDashboard, captureFromDashboard, type CaptureField } from '@/lib/payments/dashboard-actions';
import {
  field,
  formDataOf,
  UNREADABLE_FORM,
  type FormActionArguments,
  type FormState,
} from '@/lib/dashboard/form-state';
import { refundFromDashboard, type RefundField, type RefundFormState } from '@/lib/refunds/dashboard-form';

/** The Refund form of a payment's page: the same rules as POST /v1/refund-requests. */
export async function refundPaymentAction(...args: FormActionArguments<RefundField>): Promise<RefundFormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  // made at the merchant's time (its test clock), as one made with its API key would be
  const state = await refundFromDashboard(context, {
    paymentId: field(formData, 'paymentId'),
    amount: field(formData, 'amount'),
    reason: field(formData, 'reason'),
    note: field(formData, 'note'),
  });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

/** Capture on a payment's page: the same service as POST /v1/payments/{id}/capture, once per confirmed submission. */
export async function capturePaymentAction(
  ...args: FormActionArguments<CaptureField>
): Promise<FormState<CaptureField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await captureFromDashboard(context, {
    paymentId: field(formData, 'paymentId'),
    amount: field(formData, 'amount'),
    submission: field(formData, 'submission'),
  });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

/** Cancel authorization on a payment's page: the same service as POST /v1/payments/{id}/cancel. */
export async function cancelAuthorizationAction(...args: FormActionArguments<never>): Promise<FormState<never>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await cancelFromDashboard(context, {
    paymentId: field(formData, 'paymentId'),
    submission: field(formData, 'submission'),
  });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
