'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { field, formDataOf, UNREADABLE_FORM, type FormActionArguments } from '@/lib/dashboard/form-state';
import { refundFromDashboard, type RefundField, type RefundFormState } from '@/lib/dashboard/refund-form';

/** The Refund form of a payment's page: the same rules as POST /v1/refund-requests. */
export async function refundPaymentAction(...args: FormActionArguments<RefundField>): Promise<RefundFormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const paymentId = field(formData, 'paymentId');
  const state = await refundFromDashboard(await db(), merchantId, {
    paymentId,
    amount: field(formData, 'amount'),
    reason: field(formData, 'reason'),
    note: field(formData, 'note'),
  });
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}
