import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { paidPayment } from '@/lib/payments/paid-payment.fixture';
import { createRefundRequest } from './service';
import { advanceTestClock } from '@/lib/test-clocks/service';
import { changeRefund } from './dashboard-actions';
import { contextOf, contextOnClock } from '@/test/context';

// What the refunds table's buttons answer. The refund policy is the service's rule; the dashboard says it
// in words a person can act on, and tells a refund that moved on apart from one the policy keeps.

let merchantId: string;

async function requestedRefund() {
  const payment = await paidPayment(merchantId);
  return createRefundRequest(contextOf(await db(), merchantId), { payment_id: payment.id, amount: 1000 });
}

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Buttons Shop', hosts: ['shop.example.com'] })).id;
});

describe('changeRefund', () => {
  it('explains that Approve and Decline need the manual policy, and still lets a refund be canceled', async () => {
    const client = await db();
    const refund = await requestedRefund();
    const policy = {
      status: 'error',
      message: expect.stringMatching(/^Approve and Decline are for the manual refund policy/),
    };
    expect(await changeRefund(await contextOnClock(client, merchantId), refund.id, 'approve')).toEqual(policy);
    expect(await changeRefund(await contextOnClock(client, merchantId), refund.id, 'decline')).toEqual(policy);
    expect((await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('requested');
    expect(await changeRefund(await contextOnClock(client, merchantId), refund.id, 'cancel')).toEqual({
      status: 'ok',
      message: 'Refund of US$10.00 canceled.',
    });
  });

  it('says where a refund that moved on has got to', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const refund = await requestedRefund();
    expect(await changeRefund(await contextOnClock(client, merchantId), refund.id, 'approve')).toEqual({
      status: 'ok',
      message: 'Refund of US$10.00 approved.',
    });
    expect(await changeRefund(await contextOnClock(client, merchantId), refund.id, 'decline')).toEqual({
      status: 'error',
      message: 'This refund is already processing; only a requested refund can be declined.',
    });
  });

  it('approves and cancels at the merchant’s time, as its API key would (its test clock)', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const approved = await requestedRefund();
    const canceled = await requestedRefund();
    const { now: clockNow } = await advanceTestClock(contextOf(client, merchantId), 86_400);
    expect(await changeRefund(await contextOnClock(client, merchantId), approved.id, 'approve')).toMatchObject({
      status: 'ok',
    });
    expect(await changeRefund(await contextOnClock(client, merchantId), canceled.id, 'cancel')).toMatchObject({
      status: 'ok',
    });
    const rows = await client.refundRequest.findMany({ where: { id: { in: [approved.id, canceled.id] } } });
    for (const row of rows) {
      // a day ahead of the wall clock, not the wall clock's now
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(clockNow.getTime());
      if (row.id === approved.id) expect(row.processingAt?.getTime()).toBe(row.updatedAt.getTime());
    }
  });
});
