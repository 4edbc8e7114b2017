import type { Db } from '@/lib/db';
import type { Payment } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { findPayment } from './repository';

// What never changes about a payment once it is settled: whose it is, how it was paid, whether it succeeded and
// in which currency (a settled payment's row is only ever updated for its amounts, which a refund's own statement
// checks). An authorization is not settled: it is captured or canceled later, so it is never remembered.
// A refund's rules need no more, so each process keeps the latest payments' facts in memory, from the payments
// it makes and those it reads: a refund of a payment it knows is one round trip. Nothing is ever stale, so no
// process needs to be told to forget one. A payment gone since (its merchant deleted) is found out by the
// refund's statement, which then finds no payment to reserve on.

export type PaymentFacts = Pick<Payment, 'id' | 'merchantId' | 'paymentMethod' | 'status' | 'currency'>;

const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, PaymentFacts>();

export function rememberPayment(payment: PaymentFacts): void {
  const { id, merchantId, paymentMethod, status, currency } = payment;
  if (status === 'requires_capture') return;
  remembered.delete(id);
  remembered.set(id, { id, merchantId, paymentMethod, status, currency });
  // a Map keeps its insertion order: the first key is the one remembered longest ago
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

/** The facts of the merchant's payment, from memory or read once; null when the merchant has no such payment. */
export async function findPaymentFacts(database: Db, merchantId: string, id: string): Promise<PaymentFacts | null> {
  const known = remembered.get(id);
  if (known) return known.merchantId === merchantId ? known : null;
  const payment = isId('payment', id) ? await findPayment(database, merchantId, id) : null;
  if (payment) rememberPayment(payment);
  return payment;
}
