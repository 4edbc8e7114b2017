import type { RequestContext } from '@/lib/core/context';
import type { PaymentMethod, RefundPolicy } from '@/lib/generated/prisma/client';
import { hostOfUrl, normalizeHost } from './hosts';
import { findApprovedWebsite } from './repository';
import {
  ALL_PAYMENT_METHODS,
  approveWebsite,
  removeWebsite,
  renameMerchant,
  setPaymentMethods,
  setRefundPolicy,
  setTimeZone,
} from './service';
import { describeTimeZone, isTimeZone } from '@/lib/core/time-zone';
import { refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// Settings of the signed-in merchant's connection, from the dashboard's forms. Each function takes the
// merchant from the session; nothing here accepts a merchant id from a form.

/** The name's rule is the merchants service's (businessNameInput); its refusal is worded for a person. */
export async function updateBusinessName(context: RequestContext, name: string): Promise<FormState<'name'>> {
  try {
    await renameMerchant(context, name);
  } catch (error) {
    return toFormState(error, { name: 'name' }, { name });
  }
  return { status: 'ok', message: 'Business name saved.' };
}

/**
 * The host a person meant: "shop.example.com", "Shop.Example.com:8443", or a whole URL pasted from the
 * address bar ("https://shop.example.com/cart" → shop.example.com). Null when it is none of those.
 */
export function hostFromInput(input: string): string | null {
  const trimmed = input.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      return url.username || url.password ? null : hostOfUrl(url);
    } catch {
      return null;
    }
  }
  return normalizeHost(trimmed);
}

export async function addWebsite(context: RequestContext, input: string): Promise<FormState<'host'>> {
  const { db: database, merchantId } = context;
  const host = hostFromInput(input);
  if (!host)
    return refused(
      { host: 'Enter a host like shop.example.com or localhost:4000 — no path, no wildcard.' },
      { host: input },
    );
  if (host.includes('*'))
    return refused({ host: 'Wildcards are not allowed: approve each host exactly.' }, { host: input });
  if (await findApprovedWebsite(database, merchantId, host))
    return refused({ host: `${host} is already approved.` }, { host: input });
  try {
    // refused past MAX_WEBSITES, in words fit for the form
    await approveWebsite(context, host);
  } catch (error) {
    return toFormState(error, { host: 'host' }, { host: input });
  }
  return { status: 'ok', message: `${host} approved.` };
}

export async function removeApprovedWebsite(context: RequestContext, host: string): Promise<FormState> {
  const { db: database, merchantId } = context;
  if (!(await findApprovedWebsite(database, merchantId, host)))
    return { status: 'error', message: 'That website is not approved on this account.' };
  await removeWebsite(context, host);
  return { status: 'ok', message: `${host} removed. New sessions can no longer return to it.` };
}

export async function updatePaymentMethods(context: RequestContext, chosen: string[]): Promise<FormState<'methods'>> {
  const methods = ALL_PAYMENT_METHODS.filter((method) => chosen.includes(method));
  if (methods.length === 0) return refused({ methods: 'Keep at least one payment method, or customers cannot pay.' });
  await setPaymentMethods(context, methods as PaymentMethod[]);
  return { status: 'ok', message: 'Payment methods saved. They apply to sessions created from now on.' };
}

export async function updateRefundPolicy(context: RequestContext, policy: string): Promise<FormState<'policy'>> {
  if (policy !== 'automatic' && policy !== 'manual') return refused({ policy: 'Choose automatic or manual.' });
  await setRefundPolicy(context, policy as RefundPolicy);
  return {
    status: 'ok',
    message:
      policy === 'manual'
        ? 'Refunds now wait for your approval under Refunds.'
        : 'Refunds are now approved automatically.',
  };
}

/** "" (the form's "Browser's time zone") stores null: each browser then shows its own zone. */
export async function updateTimeZone(context: RequestContext, choice: string): Promise<FormState<'timeZone'>> {
  if (choice !== '' && !isTimeZone(choice)) return refused({ timeZone: 'Choose a time zone from the list.' });
  await setTimeZone(context, choice === '' ? null : choice);
  return {
    status: 'ok',
    message:
      choice === ''
        ? 'Dates now follow the time zone of the browser you use.'
        : `Dates, filters and the chart now use ${describeTimeZone(choice)} time.`,
  };
}
