'use server';

import { revalidatePath } from 'next/cache';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { field, type FormState } from '@/lib/dashboard/form-state';
import { changeRefund, type RefundChange } from '@/lib/dashboard/refund-actions';

// Approve, Decline and Cancel a refund request of the signed-in merchant.

async function run(change: RefundChange, formData: FormData): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const state = await changeRefund(await db(), merchantId, field(formData, 'refundId'), change);
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

export async function approveRefundAction(_state: FormState, formData: FormData) {
  return run('approve', formData);
}

export async function declineRefundAction(_state: FormState, formData: FormData) {
  return run('decline', formData);
}

export async function cancelRefundAction(_state: FormState, formData: FormData) {
  return run('cancel', formData);
}
