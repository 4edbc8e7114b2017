'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
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
  createEndpointFromDashboard,
  deleteEndpointFromDashboard,
  resendFromDashboard,
  rotateSecretFromDashboard,
  sendTestFromDashboard,
  type EndpointField,
} from '@/lib/dashboard/webhooks';
import { onMerchantClock } from '@/lib/test-clocks/service';

// Webhook endpoints and deliveries of the signed-in merchant.

function refreshed<State extends FormState<string>>(state: State): State {
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

/** Answers with the signing secret, once. */
export async function createEndpointAction(
  ...args: FormActionArguments<EndpointField>
): Promise<FormState<EndpointField>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const events = formData.getAll('events').filter((value): value is string => typeof value === 'string');
  const database = await db();
  // made at the merchant's time (its test clock), as one made with its API key would be
  return refreshed(
    await onMerchantClock(database, merchantId, () =>
      createEndpointFromDashboard(database, merchantId, {
        url: field(formData, 'url'),
        description: field(formData, 'description'),
        allEvents: field(formData, 'scope') !== 'selected',
        events,
      }),
    ),
  );
}

export async function rotateSecretAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await rotateSecretFromDashboard(await db(), merchantId, field(formData, 'endpointId')));
}

export async function deleteEndpointAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = refreshed(await deleteEndpointFromDashboard(await db(), merchantId, field(formData, 'endpointId')));
  if (state.status === 'ok') redirect('/dashboard/developers/webhooks');
  return state;
}

export async function sendTestEventAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  // a sent test is listed among the endpoint's deliveries, delivered or not
  const state = await sendTestFromDashboard(await db(), merchantId, field(formData, 'endpointId'));
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function resendDeliveryAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await resendFromDashboard(await db(), merchantId, field(formData, 'deliveryId'));
  revalidatePath('/dashboard', 'layout');
  return state;
}
