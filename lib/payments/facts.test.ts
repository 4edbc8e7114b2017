import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { createRefundRequest } from '@/lib/refunds/service';
import { cancelPayment, capturePayment } from './capture';
import { findPaymentFacts } from './facts';
import { authorizedPayment, paidPayment } from './paid-payment.fixture';
import * as repository from './repository';
import { contextOf } from '@/test/context';

// A refund's rules read a payment's facts, which never change, from memory once the process has made or read
// that payment; its amounts are still checked by the refund's own statement.

async function merchant(name: string) {
  return (await createMerchant(await db(), { name, hosts: ['shop.example.com'] })).id;
}

describe('payment facts', () => {
  it('are remembered from the payment this process made, and not read again', async () => {
    const merchantId = await merchant('Facts Shop');
    const payment = await paidPayment(merchantId);
    const reads = vi.spyOn(repository, 'findPayment');
    try {
      expect(await findPaymentFacts(await db(), merchantId, payment.id)).toMatchObject({
        id: payment.id,
        status: 'succeeded',
        paymentMethod: 'card',
        currency: 'USD',
      });
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it("are another merchant's: a payment it remembers is no payment of this merchant's", async () => {
    const owner = await merchant('Owner Shop');
    const stranger = await merchant('Stranger Shop');
    const payment = await paidPayment(owner);
    expect(await findPaymentFacts(await db(), stranger, payment.id)).toBeNull();
    const refused = await createRefundRequest(contextOf(await db(), stranger), {
      payment_id: payment.id,
      amount: 100,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, code: 'resource_missing', param: 'payment_id' });
  });

  it('do not let a refund pass what its statement refuses: more than is left, or a payment gone since', async () => {
    const merchantId = await merchant('Gone Shop');
    const client = await db();
    const payment = await paidPayment(merchantId);
    await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 4000 });
    const tooMuch = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: payment.id,
      amount: 2000,
    }).catch((error: unknown) => error);
    expect(tooMuch).toMatchObject({ status: 409, code: 'refund_exceeds_available' });

    await client.refundRequest.deleteMany({ where: { paymentId: payment.id } });
    await client.payment.delete({ where: { id: payment.id } });
    const gone = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: payment.id,
      amount: 100,
    }).catch((error: unknown) => error);
    expect(gone).toMatchObject({ status: 404, code: 'resource_missing', param: 'payment_id' });
  });

  it('let a capture of an authorization this process made send its statement without reading the payment', async () => {
    const merchantId = await merchant('Known Authorization Shop');
    const authorization = await authorizedPayment(merchantId);
    const reads = vi.spyOn(repository, 'findPayment');
    try {
      const captured = await capturePayment(contextOf(await db(), merchantId), authorization.id, {
        amount_to_capture: 3000,
      });
      expect(captured).toMatchObject({ status: 'succeeded', amountCaptured: 3000 });
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('are a guess for an authorization: one canceled elsewhere is refused as it is now, writing nothing', async () => {
    const merchantId = await merchant('Stale Authorization Shop');
    const client = await db();
    const authorization = await authorizedPayment(merchantId);
    // another process cancels it: this one's memory still holds the authorization
    await client.payment.update({
      where: { id: authorization.id },
      data: { status: 'canceled', canceledAt: new Date(), cancellationReason: 'requested_by_merchant' },
    });

    const refused = await capturePayment(contextOf(client, merchantId), authorization.id, {}).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ status: 409, code: 'payment_not_capturable' });
    expect((refused as ApiError).message).toContain('it is canceled');
    const again = await cancelPayment(contextOf(client, merchantId), authorization.id).catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 409, code: 'payment_not_cancelable' });
    expect((again as ApiError).message).toContain('is canceled');
    expect(await client.payment.findUniqueOrThrow({ where: { id: authorization.id } })).toMatchObject({
      status: 'canceled',
      amountCaptured: 0,
    });
  });
});
