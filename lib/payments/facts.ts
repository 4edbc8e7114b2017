import type { Db } from '@/lib/db';
import type { Payment } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { findPayment } from './repository';

// What never changes about a payment once it is settled: whose it is, how it was paid, whether it succeeded and
// in which currency (a settled payment's row is only ever updated for its amounts, which a refund's own statement
// checks). A refund's rules need no more, so each process keeps the latest payments' facts in memory, from the
// payments it makes and those it reads: a refund of a payment it knows is one round trip. Nothing is ever stale,
// so no process needs to be told to forget one. A payment gone since (its merchant deleted) is found out by the
// refund's statement, which then finds no payment to reserve on.
//
// An authorization is not settled: another process may capture or cancel it. Its whole row is remembered apart,
// as a guess: a capture or cancel of an authorization the process knows builds its answer from memory and sends
// one statement, which checks again that the payment is still authorized (lib/payments/repository.ts). Only a
// refused statement reads the payment as it is now, to word the refusal, and the guess is then replaced.

export type PaymentFacts = Pick<Payment, 'id' | 'merchantId' | 'paymentMethod' | 'status' | 'currency'>;

const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, PaymentFacts>();
const authorizations = new Map<string, Payment>();

export function rememberPayment(payment: Payment): void {
  const { id, merchantId, paymentMethod, status, currency } = payment;
  if (status === 'requires_capture') {
    keepLatest(authorizations, id, payment);
    return;
  }
  authorizations.delete(id);
  keepLatest(remembered, id, { id, merchantId, paymentMethod, status, currency });
}

function keepLatest<T>(memory: Map<string, T>, id: string, value: T): void {
  memory.delete(id);
  memory.set(id, value);
  // a Map keeps its insertion order: the first key is the one remembered longest ago
  if (memory.size > MAX_REMEMBERED) memory.delete(memory.keys().next().value!);
}

/**
 * The merchant's authorization as this process last saw it, else the payment as read now (remembered when it is
 * an authorization); null when the merchant has no such payment. What it returns may be stale: a caller writes
 * only through a statement that checks the payment is still authorized.
 */
export async function findAuthorizationGuess(database: Db, merchantId: string, id: string): Promise<Payment | null> {
  const known = authorizations.get(id);
  if (known) return known.merchantId === merchantId ? known : null;
  const payment = isId('payment', id) ? await findPayment(database, merchantId, id) : null;
  if (payment) rememberPayment(payment);
  return payment;
}

/** Drops a guess a statement proved stale. */
export function forgetAuthorization(id: string): void {
  authorizations.delete(id);
}

/** The facts of the merchant's payment, from memory or read once; null when the merchant has no such payment. */
export async function findPaymentFacts(database: Db, merchantId: string, id: string): Promise<PaymentFacts | null> {
  const known = remembered.get(id);
  if (known) return known.merchantId === merchantId ? known : null;
  const payment = isId('payment', id) ? await findPayment(database, merchantId, id) : null;
  if (payment) rememberPayment(payment);
  return payment;
}
