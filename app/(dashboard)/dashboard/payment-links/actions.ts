'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { requireMerchant } from '@/lib/auth/session';
import {
  field,
  formDataOf,
  UNREADABLE_FORM,
  type FormActionArguments,
  type FormState,
} from '@/lib/dashboard/form-state';
import {
  createPaymentLinkFromForm,
  setPaymentLinkActive,
  updatePaymentLinkFromForm,
  type PaymentLinkField,
} from '@/lib/payment-links/dashboard-form';

// The dashboard's payment link actions. Each one reads the signed-in merchant itself, and the services
// look the link up under that merchant, so a tampered id finds nothing.

export async function createPaymentLinkAction(
  ...args: FormActionArguments<PaymentLinkField>
): Promise<FormState<PaymentLinkField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  // made at the merchant's time (its test clock), as one made with its API key would be
  const outcome = await createPaymentLinkFromForm(context, {
    name: field(formData, 'name'),
    description: field(formData, 'description'),
    amount: field(formData, 'amount'),
    currency: field(formData, 'currency'),
    paymentMethods: field(formData, 'methodChoice') === 'choose' ? formData.getAll('paymentMethods').map(String) : null,
    afterPaymentUrl: field(formData, 'afterPaymentUrl'),
    quantity: quantityOf(formData),
  });
  if ('state' in outcome) return outcome.state;
  revalidatePath('/dashboard/payment-links');
  redirect(`/dashboard/payment-links/${outcome.link.id}`);
}

export async function updatePaymentLinkAction(
  ...args: FormActionArguments<PaymentLinkField>
): Promise<FormState<PaymentLinkField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const linkId = field(formData, 'linkId');
  const state = await updatePaymentLinkFromForm(context, linkId, {
    name: field(formData, 'name'),
    description: field(formData, 'description'),
    amount: field(formData, 'amount'),
    quantity: quantityOf(formData),
  });
  if (state.status === 'ok') revalidatePath('/dashboard/payment-links', 'layout');
  return state;
}

/** The quantity range the form offers customers, or null when it lets them buy one only. */
function quantityOf(formData: FormData) {
  return field(formData, 'adjustableQuantity') === 'on'
    ? { minimum: field(formData, 'quantityMinimum'), maximum: field(formData, 'quantityMaximum') }
    : null;
}

async function setActive(args: FormActionArguments, active: boolean): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await setPaymentLinkActive(context, field(formData, 'linkId'), active);
  if (state.status === 'ok') revalidatePath('/dashboard/payment-links', 'layout');
  return state;
}

export async function deactivatePaymentLinkAction(...args: FormActionArguments) {
  return setActive(args, false);
}

export async function activatePaymentLinkAction(...args: FormActionArguments) {
  return setActive(args, true);
}
