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
import { changeRefund, type RefundChange } from '@/lib/refunds/dashboard-actions';

// Approve, Decline and Cancel a refund request of the signed-in merchant.

async function run(change: RefundChange, args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await changeRefund(context, field(formData, 'refundId'), change);
  // refreshed after a refusal too: it usually means the refund moved on (completed, canceled over the API),
  // and the page should show where it is now instead of the buttons that no longer apply
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function approveRefundAction(...args: FormActionArguments) {
  return run('approve', args);
}

export async function declineRefundAction(...args: FormActionArguments) {
  return run('decline', args);
}

export async function cancelRefundAction(...args: FormActionArguments) {
  return run('cancel', args);
}
