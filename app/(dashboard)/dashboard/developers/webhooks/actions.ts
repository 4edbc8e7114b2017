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
  createEndpointFromDashboard,
  deleteEndpointFromDashboard,
  resendFromDashboard,
  revealSecretsFromDashboard,
  rotateSecretFromDashboard,
  sendTestFromDashboard,
  setEndpointStatusFromDashboard,
  updateEndpointFromDashboard,
  updateFaultsFromDashboard,
  type EndpointField,
  type FaultsField,
  type RevealField,
} from '@/lib/webhooks/dashboard-actions';

// Webhook endpoints and deliveries of the signed-in merchant.

function refreshed<State extends FormState<string>>(state: State): State {
  if (state.status === 'ok') revalidatePath('/dashboard', 'layout');
  return state;
}

/** Answers with the signing secret, once. */
export async function createEndpointAction(
  ...args: FormActionArguments<EndpointField>
): Promise<FormState<EndpointField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const events = formData.getAll('events').filter((value): value is string => typeof value === 'string');
  // made at the merchant's time (its test clock), as one made with its API key would be
  return refreshed(
    await createEndpointFromDashboard(context, {
      url: field(formData, 'url'),
      description: field(formData, 'description'),
      allEvents: field(formData, 'scope') !== 'selected',
      events,
    }),
  );
}

export async function rotateSecretAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(await rotateSecretFromDashboard(context, field(formData, 'endpointId')));
}

export async function deleteEndpointAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = refreshed(await deleteEndpointFromDashboard(context, field(formData, 'endpointId')));
  if (state.status === 'ok') redirect('/dashboard/developers/webhooks');
  return state;
}

export async function sendTestEventAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  // a sent test is listed among the endpoint's deliveries, delivered or not
  const state = await sendTestFromDashboard(context, field(formData, 'endpointId'));
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function resendDeliveryAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const state = await resendFromDashboard(context, field(formData, 'deliveryId'));
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function updateFaultsAction(...args: FormActionArguments<FaultsField>): Promise<FormState<FaultsField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(
    await updateFaultsFromDashboard(context, field(formData, 'endpointId'), {
      duplicatePercent: field(formData, 'duplicate_percent'),
      delaySeconds: field(formData, 'delay_seconds'),
      shuffle: field(formData, 'shuffle') === 'on',
      seed: field(formData, 'seed'),
    }),
  );
}

/** Edit: URL, events and description. */
export async function updateEndpointAction(
  ...args: FormActionArguments<EndpointField>
): Promise<FormState<EndpointField>> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const events = formData.getAll('events').filter((value): value is string => typeof value === 'string');
  return refreshed(
    await updateEndpointFromDashboard(context, field(formData, 'endpointId'), {
      url: field(formData, 'url'),
      description: field(formData, 'description'),
      allEvents: field(formData, 'scope') !== 'selected',
      events,
    }),
  );
}

/** Disable or Enable: `status` is the one wanted. */
export async function setEndpointStatusAction(...args: FormActionArguments): Promise<FormState> {
  const { context } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return refreshed(
    await setEndpointStatusFromDashboard(context, field(formData, 'endpointId'), field(formData, 'status')),
  );
}

/** Reveal: the signing secrets, for the signed-in user's password; nothing on the page changes. */
export async function revealSecretAction(...args: FormActionArguments<RevealField>): Promise<FormState<RevealField>> {
  const { context, email } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  return revealSecretsFromDashboard(context, email, field(formData, 'endpointId'), field(formData, 'password'));
}
