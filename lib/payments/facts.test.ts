import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { createRefundRequest } from '@/lib/refunds/service';
import { findPaymentFacts } from './facts';
import { paidPayment } from './paid-payment.fixture';
import * as repository from './repository';

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
    const refused = await createRefundRequest(await db(), stranger, { payment_id: payment.id, amount: 100 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, code: 'resource_missing', param: 'payment_id' });
  });

  it('do not let a refund pass what its statement refuses: more than is left, or a payment gone since', async () => {
    const merchantId = await merchant('Gone Shop');
    const client = await db();
    const payment = await paidPayment(merchantId);
    await createRefundRequest(client, merchantId, { payment_id: payment.id, amount: 4000 });
    const tooMuch = await createRefundRequest(client, merchantId, { payment_id: payment.id, amount: 2000 }).catch(
      (error: unknown) => error,
    );
    expect(tooMuch).toMatchObject({ status: 409, code: 'refund_exceeds_available' });

    await client.refundRequest.deleteMany({ where: { paymentId: payment.id } });
    await client.payment.delete({ where: { id: payment.id } });
    const gone = await createRefundRequest(client, merchantId, { payment_id: payment.id, amount: 100 }).catch(
      (error: unknown) => error,
    );
    expect(gone).toMatchObject({ status: 404, code: 'resource_missing', param: 'payment_id' });
  });
});
