import type { RequestContext } from '@/lib/core/context';
import { faultsInput } from './faults';
import { authorizeSignIn } from '@/lib/auth/authorize';
import { createWebhookEndpointInput, updateWebhookEndpointInput } from './schemas';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookSecrets,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhookEndpoint,
} from './service';
import { isDelivered } from './send';
import { failed, refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// Developers → Webhooks: the dashboard's changes to endpoints, through lib/webhooks/service.ts and scoped by
// the merchant.

export type EndpointField = 'url' | 'description' | 'events';
export type FaultsField = 'duplicate_percent' | 'delay_seconds' | 'seed';

const FAULT_FIELD_ERRORS: Record<FaultsField, string> = {
  duplicate_percent: 'Enter a percentage from 0 to 100.',
  delay_seconds: 'Enter whole seconds from 0 to 3600.',
  seed: 'Enter a whole number, or leave it empty for fresh randomness.',
};

type EndpointForm = { url: string; description: string; allEvents: boolean; events: string[] };

/** The create and edit dialogs' fields as the API's input, or what to say beside each refused one. */
function readEndpointForm(form: EndpointForm) {
  const parsed = createWebhookEndpointInput.safeParse({
    url: form.url.trim(),
    events: form.allEvents ? ['*'] : form.events,
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
  });
  if (parsed.success) return { input: parsed.data };
  const fieldErrors: Partial<Record<EndpointField, string>> = {};
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'url')
      fieldErrors.url ??= 'Enter the URL of your receiver, like https://example.com/webhooks.';
    else if (issue.path[0] === 'description') fieldErrors.description ??= 'Keep the description under 500 characters.';
    else fieldErrors.events ??= 'Choose at least one event type, or all events.';
  }
  return { fieldErrors };
}

/** Edit: the URL, events and description, through the same service as POST /v1/webhook-endpoints/{id}. */
export async function updateEndpointFromDashboard(
  context: RequestContext,
  endpointId: string,
  form: EndpointForm,
): Promise<FormState<EndpointField>> {
  const values = { url: form.url, description: form.description };
  const read = readEndpointForm(form);
  if (!read.input) return refused(read.fieldErrors, values);
  try {
    const input = updateWebhookEndpointInput.parse({ ...read.input, description: read.input.description ?? null });
    const endpoint = await updateWebhookEndpoint(context, endpointId, input);
    return { status: 'ok', message: `Endpoint saved: events go to ${endpoint.url}.` };
  } catch (error) {
    return toFormState(error, { url: 'url', description: 'description', events: 'events' }, values);
  }
}

/** Disable (nothing is sent, deliveries due are held) or enable again, as the API's `status` does. */
export async function setEndpointStatusFromDashboard(
  context: RequestContext,
  endpointId: string,
  status: string,
): Promise<FormState> {
  if (status !== 'enabled' && status !== 'disabled') return failed('Reload the page and try again.');
  try {
    await updateWebhookEndpoint(context, endpointId, { status });
    return {
      status: 'ok',
      message:
        status === 'disabled' ? 'Endpoint disabled. Nothing is sent to it until you enable it.' : 'Endpoint enabled.',
    };
  } catch (error) {
    return toFormState(error, {});
  }
}

export type RevealField = 'password';

/**
 * Reveal: the endpoint's signing secrets, once the signed-in user has typed the account's password again
 * (checked and throttled as a sign-in is), so an unattended, signed-in screen does not give them away.
 */
export async function revealSecretsFromDashboard(
  context: RequestContext,
  email: string,
  endpointId: string,
  password: string,
): Promise<FormState<RevealField>> {
  if (!password) return refused({ password: 'Enter your password.' });
  const signIn = await authorizeSignIn(context.db, { email, password }, null);
  if (!signIn.ok && signIn.reason === 'throttled') {
    const minutes = Math.max(1, Math.ceil(signIn.retryAfterSeconds / 60));
    return refused({ password: `Too many tries. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.` });
  }
  if (!signIn.ok || signIn.user.merchantId !== context.merchantId) {
    return refused({ password: 'That is not your password.' });
  }
  try {
    // whether a rotation's old secret still signs is a question of the merchant's time
    const { secret, previous } = await getWebhookSecrets(context, endpointId);
    return {
      status: 'ok',
      message: 'Signing secret revealed.',
      secret,
      ...(previous ? { previousSecret: previous.secret, previousSecretUntil: previous.expiresAt.toISOString() } : {}),
    };
  } catch (error) {
    return toFormState(error, {});
  }
}

export async function createEndpointFromDashboard(
  context: RequestContext,
  form: EndpointForm,
): Promise<FormState<EndpointField>> {
  const values = { url: form.url, description: form.description };
  const read = readEndpointForm(form);
  if (!read.input) return refused(read.fieldErrors, values);
  try {
    const endpoint = await createWebhookEndpoint(context, read.input);
    return { status: 'ok', message: `Endpoint ${endpoint.url} added.`, secret: endpoint.secret };
  } catch (error) {
    return toFormState(error, { url: 'url', description: 'description', events: 'events' }, values);
  }
}

export async function rotateSecretFromDashboard(context: RequestContext, endpointId: string): Promise<FormState> {
  try {
    const endpoint = await rotateWebhookSecret(context, endpointId);
    return {
      status: 'ok',
      message: 'Signing secret rotated. The old one keeps signing beside it for 24 hours.',
      secret: endpoint.secret,
    };
  } catch (error) {
    return toFormState(error, {});
  }
}

export async function deleteEndpointFromDashboard(context: RequestContext, endpointId: string): Promise<FormState> {
  try {
    await deleteWebhookEndpoint(context, endpointId);
    return { status: 'ok', message: 'Endpoint deleted. Nothing more is sent to it.' };
  } catch (error) {
    return toFormState(error, {});
  }
}

/** A signed `webhook_endpoint.test` event, sent now; the answer is reported at once. */
export async function sendTestFromDashboard(context: RequestContext, endpointId: string): Promise<FormState> {
  try {
    const outcome = await sendTestEvent(context, endpointId);
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      return {
        status: 'ok',
        message: `Delivered: your endpoint answered ${outcome.status} in ${outcome.durationMs} ms.`,
      };
    }
    return failed(`Not delivered: ${outcome.error ?? `answered ${outcome.status}`} (${outcome.durationMs} ms).`);
  } catch (error) {
    return toFormState(error, {});
  }
}

export async function resendFromDashboard(context: RequestContext, deliveryId: string): Promise<FormState> {
  try {
    // the message speaks of this resend's own attempt, not of a worker's that may have ended meanwhile
    const { delivery, outcome } = await resendDelivery(context, deliveryId);
    if (isDelivered(outcome)) return { status: 'ok', message: `Resent: answered ${outcome.status}.` };
    const retried = delivery.status === 'pending' ? ' It will be retried.' : '';
    return failed(`Resent, not delivered: ${outcome.error ?? `answered ${outcome.status}`}.${retried}`);
  } catch (error) {
    return toFormState(error, {});
  }
}

/**
 * The Fault injection panel's save, through the same service as POST /v1/webhook-endpoints/{id}. The
 * duplicate rate is typed as a percentage; the seed is always set (numbering the deliveries from 1 again,
 * so each save starts a reproducible run), empty meaning none.
 */
export async function updateFaultsFromDashboard(
  context: RequestContext,
  endpointId: string,
  form: { duplicatePercent: string; delaySeconds: string; shuffle: boolean; seed: string },
): Promise<FormState<FaultsField>> {
  const values = { duplicate_percent: form.duplicatePercent, delay_seconds: form.delaySeconds, seed: form.seed };
  const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));
  const parsed = faultsInput.safeParse({
    duplicate_rate: numberOf(form.duplicatePercent) / 100,
    delay_seconds: numberOf(form.delaySeconds),
    shuffle: form.shuffle,
    seed: form.seed.trim() === '' ? null : numberOf(form.seed),
  });
  if (!parsed.success) {
    const fieldErrors: Partial<Record<FaultsField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'duplicate_rate' ? 'duplicate_percent' : (issue.path[0] as FaultsField);
      if (field in FAULT_FIELD_ERRORS) fieldErrors[field] ??= FAULT_FIELD_ERRORS[field];
    }
    return refused(fieldErrors, values);
  }
  try {
    await updateWebhookEndpoint(context, endpointId, { faults: parsed.data });
    return { status: 'ok', message: 'Fault injection saved.' };
  } catch (error) {
    return toFormState(
      error,
      { 'faults.duplicate_rate': 'duplicate_percent', 'faults.delay_seconds': 'delay_seconds', 'faults.seed': 'seed' },
      values,
    );
  }
}
