import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { paidPayment } from '@/lib/payments/paid-payment.fixture';
import { approveRefundRequest, cancelRefundRequest, createRefundRequest, declineRefundRequest } from './service';
import { contextOf } from '@/test/context';

// The refund rules that a statement keeps alone, with no pre-check in the service to race it: the amount left
// (the reservation's UPDATE of the payment, lib/refunds/repository.ts) and "only a requested refund changes"
// (the change's UPDATE … WHERE status = 'requested'). The service words the refusal from the rows as they are
// after the statement refused. Each test runs the same data both ways: the state already past when the request
// came (read before), and moved by a request at the same moment (between the read and the write); both must be
// the same refusal, in words that match the rows.

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Refund Rules Shop', hosts: ['shop.example.com'] })).id;
});

function refusalOf(error: unknown) {
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, code: error.code, userMessage: error.userMessage };
}

const caught = (change: Promise<unknown>) =>
  change.then(
    () => null,
    (error: unknown) => error,
  );

describe('a refund takes at most what is left of its payment', () => {
  it('is refused alike when the rest was taken before, and when it is taken at the same moment', async () => {
    const client = await db();
    const before = await paidPayment(merchantId);
    await createRefundRequest(contextOf(client, merchantId), { payment_id: before.id, amount: 4000 });
    const takenBefore = refusalOf(
      await caught(createRefundRequest(contextOf(client, merchantId), { payment_id: before.id, amount: 2000 })),
    );

    const meanwhile = await paidPayment(merchantId);
    const both = await Promise.allSettled(
      [4000, 2000].map((amount) =>
        createRefundRequest(contextOf(client, merchantId), { payment_id: meanwhile.id, amount }),
      ),
    );
    const refused = both.filter((one): one is PromiseRejectedResult => one.status === 'rejected');
    expect(refused).toHaveLength(1);
    const takenMeanwhile = refusalOf(refused[0].reason);

    expect(takenBefore).toEqual({
      status: 409,
      code: 'refund_exceeds_available',
      userMessage: 'Only US$10.00 is left to refund on this payment.',
    });
    // whichever came second is told what the first left
    const left = both[0].status === 'fulfilled' ? 'US$10.00' : 'US$30.00';
    expect(takenMeanwhile).toEqual({ ...takenBefore, userMessage: `Only ${left} is left to refund on this payment.` });
    expect((await client.payment.findUniqueOrThrow({ where: { id: meanwhile.id } })).amountReserved).toBe(
      both[0].status === 'fulfilled' ? 4000 : 2000,
    );
  });
});

describe('only a requested refund is canceled, approved or declined', () => {
  it('cancel: refused alike after an earlier cancel, and after one at the same moment', async () => {
    const client = await db();
    const payment = await paidPayment(merchantId);
    const earlier = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    await cancelRefundRequest(contextOf(client, merchantId), earlier.id);
    const canceledBefore = refusalOf(await caught(cancelRefundRequest(contextOf(client, merchantId), earlier.id)));

    const raced = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    const both = await Promise.allSettled(
      [1, 2].map(() => cancelRefundRequest(contextOf(client, merchantId), raced.id)),
    );
    const refused = both.filter((one): one is PromiseRejectedResult => one.status === 'rejected');
    expect(refused).toHaveLength(1);

    expect(canceledBefore).toEqual({
      status: 409,
      code: 'refund_not_cancelable',
      userMessage: 'This refund is already canceled; only a requested refund can be canceled.',
    });
    expect(refusalOf(refused[0].reason)).toEqual(canceledBefore);
  });

  it('approve and decline: refused alike after an earlier decision, and after one at the same moment', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const payment = await paidPayment(merchantId);
    const earlier = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    await approveRefundRequest(contextOf(client, merchantId), earlier.id);
    const decidedBefore = refusalOf(await caught(declineRefundRequest(contextOf(client, merchantId), earlier.id)));

    const raced = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    const both = await Promise.allSettled([
      approveRefundRequest(contextOf(client, merchantId), raced.id),
      declineRefundRequest(contextOf(client, merchantId), raced.id),
    ]);
    const refused = both.filter((one): one is PromiseRejectedResult => one.status === 'rejected');
    expect(refused).toHaveLength(1);
    const decidedMeanwhile = refusalOf(refused[0].reason);

    expect(decidedBefore).toEqual({
      status: 409,
      code: 'refund_not_cancelable',
      userMessage: 'This refund is already processing; only a requested refund can be declined.',
    });
    // the same refusal, worded from where the refund got to
    const [approved] = both;
    expect(decidedMeanwhile).toEqual(
      approved.status === 'fulfilled'
        ? decidedBefore
        : {
            ...decidedBefore,
            userMessage: 'This refund is already declined; only a requested refund can be approved.',
          },
    );
  });
});
