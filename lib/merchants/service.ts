import { z } from 'zod';
import type { RequestContext } from '@/lib/core/context';
import { errors } from '@/lib/core/errors';
import { type Db } from '@/lib/db';
import type { PaymentMethod, RefundPolicy } from '@/lib/generated/prisma/client';
import { newId } from '@/lib/core/ids';
import { isTimeZone } from '@/lib/core/time-zone';
import { normalizeHost } from './hosts';
import { settingsChanged } from './settings';
import {
  countApprovedWebsites,
  deleteApprovedWebsite,
  findApprovedWebsite,
  findMerchantRefundPolicy,
  findMerchantWithWebsites,
  merchantIdExists,
  insertMerchant,
  updateMerchantName,
  updateMerchantPaymentMethods,
  updateMerchantRefundPolicy,
  updateMerchantTimeZone,
  upsertApprovedWebsite,
} from './repository';

export const ALL_PAYMENT_METHODS: PaymentMethod[] = ['card', 'usdc', 'interac'];

/** How many websites one account can approve, whoever adds them (dashboard, CLI). */
export const MAX_WEBSITES = 25;

/** The business name customers see on the hosted checkout: trimmed, 1 to 100 characters. */
export const businessNameInput = z
  .string()
  .trim()
  .min(1, 'Enter your business name.')
  .max(100, 'Keep the business name under 100 characters.');

export type MerchantWithWebsites = Awaited<ReturnType<typeof getMerchantOrThrow>>;

export async function createMerchant(database: Db, input: { name: string; hosts?: string[] }) {
  const hosts = [...new Set((input.hosts ?? []).map(requireHost))];
  if (hosts.length > MAX_WEBSITES) throw tooManyWebsites();
  const merchant = await insertMerchant(database, {
    id: newId('merchant'),
    name: requireBusinessName(input.name),
    paymentMethods: ALL_PAYMENT_METHODS,
    refundPolicy: 'automatic',
    hosts,
  });
  settingsChanged(database, merchant.id);
  return merchant;
}

export async function getMerchantOrThrow(database: Db, id: string) {
  return findMerchantWithWebsites(database, id);
}

/** Whether a merchant of this id exists (the admin CLI names one by hand). */
export async function merchantExists(database: Db, id: string): Promise<boolean> {
  return merchantIdExists(database, id);
}

export async function getRefundPolicy(context: RequestContext): Promise<RefundPolicy> {
  return findMerchantRefundPolicy(context.db, context.merchantId);
}

/** Approves a host (again is fine); a new one is refused once the account has MAX_WEBSITES. */
export async function approveWebsite(context: RequestContext, host: string): Promise<string> {
  const { db: database, merchantId } = context;
  const normalized = requireHost(host);
  if (!(await findApprovedWebsite(database, merchantId, normalized))) {
    if ((await countApprovedWebsites(database, merchantId)) >= MAX_WEBSITES) throw tooManyWebsites();
  }
  await upsertApprovedWebsite(database, merchantId, normalized);
  settingsChanged(database, merchantId);
  return normalized;
}

function tooManyWebsites() {
  const why = `An account can approve up to ${MAX_WEBSITES} websites. Remove one first.`;
  return errors.parameterInvalid(why, 'host', why);
}

export async function removeWebsite(context: RequestContext, host: string): Promise<void> {
  const { db: database, merchantId } = context;
  await deleteApprovedWebsite(database, merchantId, normalizeHost(host) ?? host);
  settingsChanged(database, merchantId);
}

export async function setPaymentMethods(context: RequestContext, methods: PaymentMethod[]) {
  const { db: database, merchantId } = context;
  if (methods.length === 0)
    throw errors.parameterInvalid(
      'at least one payment method must stay approved',
      'payment_methods',
      'Keep at least one payment method approved.',
    );
  const ordered = ALL_PAYMENT_METHODS.filter((method) => methods.includes(method));
  await updateMerchantPaymentMethods(database, merchantId, ordered);
  settingsChanged(database, merchantId);
  return ordered;
}

export async function setRefundPolicy(context: RequestContext, policy: RefundPolicy) {
  const { db: database, merchantId } = context;
  await updateMerchantRefundPolicy(database, merchantId, policy);
  return policy;
}

/** The dashboard's zone for this merchant; null hands the choice back to the signed-in browser. */
export async function setTimeZone(context: RequestContext, timeZone: string | null) {
  const { db: database, merchantId } = context;
  if (timeZone !== null && !isTimeZone(timeZone))
    throw errors.parameterInvalid(
      `not a time zone: ${JSON.stringify(timeZone)} (expected an IANA name, e.g. America/Los_Angeles)`,
      'time_zone',
      'Choose a time zone from the list.',
    );
  await updateMerchantTimeZone(database, merchantId, timeZone);
  return timeZone;
}

function requireHost(host: string): string {
  const normalized = normalizeHost(host);
  if (!normalized)
    throw errors.parameterInvalid(
      `not a host: ${JSON.stringify(host)} (expected hostname[:port], e.g. shop.example.com)`,
      'host',
      'Enter a host like shop.example.com or localhost:4000 — no path, no wildcard.',
    );
  return normalized;
}

function requireBusinessName(name: string): string {
  const parsed = businessNameInput.safeParse(name);
  // its messages are written for a person (businessNameInput above)
  if (!parsed.success) {
    const why = parsed.error.issues[0].message;
    throw errors.parameterInvalid(why, 'name', why);
  }
  return parsed.data;
}

/** The business name customers see on the hosted checkout. */
export async function renameMerchant(context: RequestContext, name: string) {
  const { db: database, merchantId } = context;
  const trimmed = requireBusinessName(name);
  await updateMerchantName(database, merchantId, trimmed);
  return trimmed;
}
