import type { Db } from '@/lib/db';
import type { PaymentMethod, RefundPolicy } from '@/lib/generated/prisma/client';

// Every query on merchants and approved_websites.

export async function insertMerchant(
  database: Db,
  merchant: { id: string; name: string; paymentMethods: PaymentMethod[]; refundPolicy: RefundPolicy; hosts: string[] },
) {
  const { hosts, ...fields } = merchant;
  return database.merchant.create({
    data: { ...fields, websites: { create: hosts.map((host) => ({ host })) } },
    include: { websites: true },
  });
}

/** The merchant and its websites, oldest first; throws when there is no such merchant. */
export async function findMerchantWithWebsites(database: Db, id: string) {
  return database.merchant.findUniqueOrThrow({
    where: { id },
    include: { websites: { orderBy: { createdAt: 'asc' } } },
  });
}

/** Whether a merchant of this id exists. */
export async function merchantIdExists(database: Db, id: string): Promise<boolean> {
  return (await database.merchant.findUnique({ where: { id }, select: { id: true } })) !== null;
}

export type MerchantRules = { id: string; paymentMethods: PaymentMethod[]; hosts: string[] };

/** What a request checks of its merchant: methods and approved hosts. Throws when there is no such merchant. */
export async function findMerchantRules(database: Db, id: string): Promise<MerchantRules> {
  const merchant = await database.merchant.findUniqueOrThrow({
    where: { id },
    select: { id: true, paymentMethods: true, websites: { select: { host: true } } },
  });
  return {
    id: merchant.id,
    paymentMethods: merchant.paymentMethods,
    hosts: merchant.websites.map((site) => site.host),
  };
}

/** What the dashboard's Settings page shows: the merchant, its websites and its users' e-mails. */
export async function findMerchantSettings(database: Db, id: string) {
  return database.merchant.findUniqueOrThrow({
    where: { id },
    include: {
      websites: { orderBy: { createdAt: 'asc' } },
      users: { select: { email: true }, orderBy: { createdAt: 'asc' } },
    },
  });
}

export async function findMerchantRefundPolicy(database: Db, id: string): Promise<RefundPolicy> {
  const { refundPolicy } = await database.merchant.findUniqueOrThrow({ where: { id }, select: { refundPolicy: true } });
  return refundPolicy;
}

export async function countMerchants(database: Db): Promise<number> {
  return database.merchant.count();
}

export async function findOldestMerchant(database: Db) {
  return database.merchant.findFirstOrThrow({ orderBy: { createdAt: 'asc' } });
}

const DEMO_SEED_LOCK = 727_274_002;

/** Held until the transaction ends: two processes starting on an empty database seed once. */
export async function lockDemoSeed(tx: Db): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${DEMO_SEED_LOCK})`;
}

export async function updateMerchantName(database: Db, id: string, name: string): Promise<void> {
  await database.merchant.update({ where: { id }, data: { name } });
}

export async function updateMerchantPaymentMethods(database: Db, id: string, methods: PaymentMethod[]): Promise<void> {
  await database.merchant.update({ where: { id }, data: { paymentMethods: methods } });
}

export async function updateMerchantRefundPolicy(database: Db, id: string, policy: RefundPolicy): Promise<void> {
  await database.merchant.update({ where: { id }, data: { refundPolicy: policy } });
}

export async function updateMerchantTimeZone(database: Db, id: string, timeZone: string | null): Promise<void> {
  await database.merchant.update({ where: { id }, data: { timeZone } });
}

export async function findApprovedWebsite(database: Db, merchantId: string, host: string) {
  return database.approvedWebsite.findUnique({ where: { merchantId_host: { merchantId, host } } });
}

export async function countApprovedWebsites(database: Db, merchantId: string): Promise<number> {
  return database.approvedWebsite.count({ where: { merchantId } });
}

/** Approving a host that is already approved changes nothing. */
export async function upsertApprovedWebsite(database: Db, merchantId: string, host: string): Promise<void> {
  await database.approvedWebsite.upsert({
    where: { merchantId_host: { merchantId, host } },
    create: { merchantId, host },
    update: {},
  });
}

export async function deleteApprovedWebsite(database: Db, merchantId: string, host: string): Promise<void> {
  await database.approvedWebsite.deleteMany({ where: { merchantId, host } });
}
