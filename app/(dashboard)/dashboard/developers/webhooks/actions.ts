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
  revealSecretsFromDashboard,
  rotateSecretFromDashboard,
  sendTestFromDashboard,
  setEndpointStatusFromDashboard,
  updateEndpointFromDashboard,
  updateFaultsFromDashboard,
  type EndpointField,
  type FaultsField,
  type RevealField,
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
  const database = await db();
  return refreshed(
    await onMerchantClock(database, merchantId, () =>
      rotateSecretFromDashboard(database, merchantId, field(formData, 'endpointId')),
    ),
  );
}

export async function deleteEndpointAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const database = await db();
  const state = refreshed(
    await onMerchantClock(database, merchantId, () =>
      deleteEndpointFromDashboard(database, merchantId, field(formData, 'endpointId')),
    ),
  );
  if (state.status === 'ok') redirect('/dashboard/developers/webhooks');
  return state;
}

export async function sendTestEventAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  // a sent test is listed among the endpoint's deliveries, delivered or not
  const database = await db();
  const state = await onMerchantClock(database, merchantId, () =>
    sendTestFromDashboard(database, merchantId, field(formData, 'endpointId')),
  );
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function resendDeliveryAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const database = await db();
  // due at once in the merchant's time (its test clock), which the worker's queue compares with
  const state = await onMerchantClock(database, merchantId, () =>
    resendFromDashboard(database, merchantId, field(formData, 'deliveryId')),
  );
  revalidatePath('/dashboard', 'layout');
  return state;
}

export async function updateFaultsAction(...args: FormActionArguments<FaultsField>): Promise<FormState<FaultsField>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const database = await db();
  return refreshed(
    await onMerchantClock(database, merchantId, () =>
      updateFaultsFromDashboard(database, merchantId, field(formData, 'endpointId'), {
        duplicatePercent: field(formData, 'duplicate_percent'),
        delaySeconds: field(formData, 'delay_seconds'),
        shuffle: field(formData, 'shuffle') === 'on',
        seed: field(formData, 'seed'),
      }),
    ),
  );
}

/** Edit: URL, events and description. */
export async function updateEndpointAction(
  ...args: FormActionArguments<EndpointField>
): Promise<FormState<EndpointField>> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const events = formData.getAll('events').filter((value): value is string => typeof value === 'string');
  const database = await db();
  return refreshed(
    await onMerchantClock(database, merchantId, () =>
      updateEndpointFromDashboard(database, merchantId, field(formData, 'endpointId'), {
        url: field(formData, 'url'),
        description: field(formData, 'description'),
        allEvents: field(formData, 'scope') !== 'selected',
        events,
      }),
    ),
  );
}

/** Disable or Enable: `status` is the one wanted. */
export async function setEndpointStatusAction(...args: FormActionArguments): Promise<FormState> {
  const { merchantId } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const database = await db();
  return refreshed(
    await onMerchantClock(database, merchantId, () =>
      setEndpointStatusFromDashboard(database, merchantId, field(formData, 'endpointId'), field(formData, 'status')),
    ),
  );
}

/** Reveal: the signing secrets, for the signed-in user's password; nothing on the page changes. */
export async function revealSecretAction(...args: FormActionArguments<RevealField>): Promise<FormState<RevealField>> {
  const { merchantId, email } = await requireMerchant();
  const formData = formDataOf(args);
  if (!formData) return UNREADABLE_FORM;
  const database = await db();
  // whether a rotation's old secret still signs is a question of the merchant's time
  return onMerchantClock(database, merchantId, () =>
    revealSecretsFromDashboard(
      database,
      { merchantId, email },
      field(formData, 'endpointId'),
      field(formData, 'password'),
    ),
  );
}
