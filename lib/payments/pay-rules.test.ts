import { refusalOf } from '@/test/refusal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as sessions from '@/lib/checkout-sessions/repository';
import { createCheckoutSession, expireCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { payCheckoutSession } from './pay';
import * as repository from './repository';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// A session takes a payment only while it is open (not paid, not past its expiry). The rule is kept twice: by
// assertPayable in lib/payments/pay.ts, on the session as read, for the customer's message; and by the payment's
// statement (`payable` in lib/payments/repository.ts), on the row as it is. Each test runs both paths on the same
// data: the session closed before it was read (the pre-check refuses, no statement is sent), and closed by
// someone else between this read and the write (the statement refuses). Both must be the same refusal.

const CARD = { payment_method: 'card', card_number: '4242424242424242' } as const;
const USDC = { payment_method: 'usdc' } as const;

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Pay Rules Shop', hosts: ['shop.example.com'] })).id;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const openSession = async () =>
  createCheckoutSession(contextOf(await db(), merchantId), {
    order_reference: `o-${Math.random().toString(36).slice(2)}`,
    currency: 'USD',
    items: [{ name: 'Mug', quantity: 1, unit_amount: 1200 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 1200,
    return_url: 'https://shop.example.com/thanks',
  });

/** The next read of a session for a payment returns it as it was, after `meanwhile` closed it. */
function closedAfterTheRead(meanwhile: (sessionId: string) => Promise<unknown>) {
  const read = sessions.findSessionForPayment;
  vi.spyOn(sessions, 'findSessionForPayment').mockImplementationOnce(async (database, merchant, id) => {
    const asRead = await read(database, merchant, id);
    await meanwhile(id);
    return asRead;
  });
}

async function bothPaths(close: (sessionId: string) => Promise<unknown>) {
  const client = await db();
  const writes = vi.spyOn(repository, 'recordPayment');

  const closedBefore = await openSession();
  await close(closedBefore.id);
  writes.mockClear();
  const byPreCheck = await refusalOf(payCheckoutSession(merchantContexts(client), closedBefore.id, CARD));
  expect(writes).not.toHaveBeenCalled();

  const closedMeanwhile = await openSession();
  closedAfterTheRead(close);
  writes.mockClear();
  const byStatement = await refusalOf(payCheckoutSession(merchantContexts(client), closedMeanwhile.id, CARD));
  // the statement refused (the last one sent: `close` may have paid first), and the session read again says why
  expect(await writes.mock.results.at(-1)?.value).toBe('checkout_session_not_payable');
  expect(await client.payment.count({ where: { checkoutSessionId: closedMeanwhile.id, paymentMethod: 'card' } })).toBe(
    0,
  );
  return { byPreCheck, byStatement };
}

describe('a session is paid only while it is open', () => {
  it('expired: refused alike by the pre-check and by the statement', async () => {
    const { byPreCheck, byStatement } = await bothPaths(async (id) =>
      expireCheckoutSession(contextOf(await db(), merchantId), id),
    );
    expect(byPreCheck).toEqual({
      status: 409,
      code: 'checkout_session_not_open',
      userMessage: 'This checkout has expired, so nothing was paid.',
    });
    expect(byStatement).toEqual(byPreCheck);
  });

  it('paid by another customer: refused alike by the pre-check and by the statement', async () => {
    const { byPreCheck, byStatement } = await bothPaths(async (id) =>
      payCheckoutSession(merchantContexts(await db()), id, USDC),
    );
    expect(byPreCheck).toEqual({
      status: 409,
      code: 'checkout_session_not_open',
      userMessage: 'This checkout is already paid.',
    });
    expect(byStatement).toEqual(byPreCheck);
  });
});
