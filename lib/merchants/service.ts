import { type Db } from '@/lib/db';
import type { PaymentMethod, RefundPolicy } from '@/lib/generated/prisma/client';
import { newId } from '@/lib/ids';
import { isTimeZone } from '@/lib/time-zone';
import { normalizeHost } from './hosts';

export const ALL_PAYMENT_METHODS: PaymentMethod[] = ['card', 'usdc', 'interac'];

export type MerchantWithWebsites = Awaited<ReturnType<typeof getMerchantOrThrow>>;

export async function createMerchant(database: Db, input: { name: string; hosts?: string[] }) {
  const hosts = (input.hosts ?? []).map(requireHost);
  return database.merchant.create({
    data: {
      id: newId('merchant'),
      name: input.name,
      paymentMethods: ALL_PAYMENT_METHODS,
      refundPolicy: 'automatic',
      websites: { create: [...new Set(hosts)].map((host) => ({ host })) },
    },
    include: { websites: true },
  });
}

export async function getMerchantOrThrow(database: Db, id: string) {
  return database.merchant.findUniqueOrThrow({
    where: { id },
    include: { websites: { orderBy: { createdAt: 'asc' } } },
  });
}

export async function approveWebsite(database: Db, merchantId: string, host: string): Promise<string> {
  const normalized = requireHost(host);
  await database.approvedWebsite.upsert({
    where: { merchantId_host: { merchantId, host: normalized } },
    create: { merchantId, host: normalized },
    update: {},
  });
  return normalized;
}

export async function removeWebsite(database: Db, merchantId: string, host: string): Promise<void> {
  await database.approvedWebsite.deleteMany({ where: { merchantId, host: normalizeHost(host) ?? host } });
}

export async function setPaymentMethods(database: Db, merchantId: string, methods: PaymentMethod[]) {
  if (methods.length === 0) throw new Error('at least one payment method must stay approved');
  const ordered = ALL_PAYMENT_METHODS.filter((method) => methods.includes(method));
  await database.merchant.update({ where: { id: merchantId }, data: { paymentMethods: ordered } });
  return ordered;
}

export async function setRefundPolicy(database: Db, merchantId: string, policy: RefundPolicy) {
  await database.merchant.update({ where: { id: merchantId }, data: { refundPolicy: policy } });
  return policy;
}

/** The dashboard's zone for this merchant; null hands the choice back to the signed-in browser. */
export async function setTimeZone(database: Db, merchantId: string, timeZone: string | null) {
  if (timeZone !== null && !isTimeZone(timeZone))
    throw new Error(`not a time zone: ${JSON.stringify(timeZone)} (expected an IANA name, e.g. America/Los_Angeles)`);
  await database.merchant.update({ where: { id: merchantId }, data: { timeZone } });
  return timeZone;
}

function requireHost(host: string): string {
  const normalized = normalizeHost(host);
  if (!normalized)
    throw new Error(`not a host: ${JSON.stringify(host)} (expected hostname[:port], e.g. shop.example.com)`);
  return normalized;
}

/** The business name customers see on the hosted checkout. */
export async function renameMerchant(database: Db, merchantId: string, name: string) {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new Error('a business name is 1 to 100 characters');
  await database.merchant.update({ where: { id: merchantId }, data: { name: trimmed } });
  return trimmed;
}
