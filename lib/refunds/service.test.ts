import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { paidPayment as paidLamp } from '@/lib/payments/paid-payment.fixture';
import {
  approveRefundRequest,
  authorizeAutomaticRefunds,
  cancelRefundRequest,
  createRefundRequest,
  declineRefundRequest,
  finishProcessingRefunds,
  finishRefundNow,
} from './service';
import * as repository from './repository';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// The refund life cycle and the sandbox provider, driven by the worker's own job functions.

let merchantId: string;

const paidPayment = (cardNumber = '4242424242424242') =>
  paidLamp(merchantId, { payment_method: 'card', card_number: cardNumber });

async function eventsOf(type: string, id: string) {
  const client = await db();
  return client.event.findMany({ where: { type, data: { path: ['object', 'id'], equals: id } } });
}

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Refund Shop', hosts: ['shop.example.com'] })).id;
});

describe('automatic policy', () => {
  it('authorizes, then completes after the provider delay, counting the amount refunded', async () => {
    const client = await db();
    const payment = await paidPayment();
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 2000 });
    expect(refund.status).toBe('requested');
    expect(await eventsOf('refund_request.created', refund.id)).toHaveLength(1);

    await authorizeAutomaticRefunds(merchantContexts(client));
    expect((await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('processing');
    // the provider has not finished yet
    expect(await finishProcessingRefunds(merchantContexts(client), 60_000)).toBe(0);
    expect(await finishProcessingRefunds(merchantContexts(client), 0)).toBe(1);

    const done = await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } });
    expect(done.status).toBe('completed');
    expect(await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      amountReserved: 2000,
      amountRefunded: 2000,
    });
    expect(await eventsOf('refund.completed', refund.id)).toHaveLength(1);
    // finishing is done once
    expect(await finishProcessingRefunds(merchantContexts(client), 0)).toBe(0);
  });

  it('fails refunds of the 5126 test card and gives the amount back', async () => {
    const client = await db();
    const payment = await paidPayment('4000000000005126');
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 5000 });
    await authorizeAutomaticRefunds(merchantContexts(client));
    await finishProcessingRefunds(merchantContexts(client), 0);
    const failed = await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } });
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    expect(await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      amountReserved: 0,
      amountRefunded: 0,
    });
    expect(await eventsOf('refund.failed', refund.id)).toHaveLength(1);
  });

  it('refuses Approve and Decline, which are for the manual policy, and leaves the refund to the worker', async () => {
    const client = await db();
    const payment = await paidPayment();
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    for (const change of [approveRefundRequest, declineRefundRequest]) {
      await expect(change(contextOf(client, merchantId), refund.id)).rejects.toMatchObject({
        status: 409,
        code: 'refund_policy_not_manual',
        message: expect.stringMatching(/manual refund policy/),
      });
    }
    expect(await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: 'requested',
      processingAt: null,
    });
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountReserved).toBe(1000);
    await authorizeAutomaticRefunds(merchantContexts(client));
    await finishProcessingRefunds(merchantContexts(client), 0);
    expect((await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('completed');
  });

  it('stops when a full batch could not be approved, leaving it to the next tick instead of looping', async () => {
    const client = await db();
    const payment = await paidPayment();
    for (let i = 0; i < 60; i++)
      await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 50 });
    // every approval refused, as when each refund's merchant turned manual between the read and the write
    const approvals = vi.spyOn(repository, 'approveRequestedRefundAutomatically').mockResolvedValue(false);
    try {
      expect(await authorizeAutomaticRefunds(merchantContexts(client))).toBe(0);
      expect(approvals.mock.calls.length).toBeLessThanOrEqual(50);
    } finally {
      approvals.mockRestore();
    }
    const left = await client.refundRequest.findMany({ where: { paymentId: payment.id, status: 'requested' } });
    expect(left).toHaveLength(60);
    // withdrawn, so the other tests' workers find none of them
    for (const refund of left) await cancelRefundRequest(contextOf(client, merchantId), refund.id);
  });

  it('lets two workers finish a batch without finishing any refund twice', async () => {
    const client = await db();
    const payment = await paidPayment();
    for (let i = 0; i < 10; i++)
      await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 100 });
    await authorizeAutomaticRefunds(merchantContexts(client));
    const [a, b] = await Promise.all([
      finishProcessingRefunds(merchantContexts(client), 0, 6),
      finishProcessingRefunds(merchantContexts(client), 0, 6),
    ]);
    const rest = await finishProcessingRefunds(merchantContexts(client), 0, 6);
    expect(a + b + rest).toBe(10);
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountRefunded).toBe(1000);
    expect(await client.event.count({ where: { merchantId, type: 'refund.completed' } })).toBe(10);
  });
});

describe('manual policy', () => {
  beforeEach(async () => {
    await setRefundPolicy(contextOf(await db(), merchantId), 'manual');
  });

  it('waits for a person: the worker does not authorize', async () => {
    const client = await db();
    const refund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: (await paidPayment()).id,
      amount: 100,
    });
    await authorizeAutomaticRefunds(merchantContexts(client));
    expect((await client.refundRequest.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('requested');
  });

  it('approve sends it to the provider; decline frees the amount; neither twice', async () => {
    const client = await db();
    const payment = await paidPayment();
    const approved = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1000 });
    const declined = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 4000 });
    expect((await approveRefundRequest(contextOf(client, merchantId), approved.id)).status).toBe('processing');
    expect((await declineRefundRequest(contextOf(client, merchantId), declined.id)).status).toBe('declined');
    expect((await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).amountReserved).toBe(1000);
    await expect(declineRefundRequest(contextOf(client, merchantId), approved.id)).rejects.toMatchObject({
      code: 'refund_not_cancelable',
    });
    await expect(approveRefundRequest(contextOf(client, merchantId), declined.id)).rejects.toMatchObject({
      code: 'refund_not_cancelable',
    });
    await finishProcessingRefunds(merchantContexts(client), 0);
    expect((await client.refundRequest.findUniqueOrThrow({ where: { id: approved.id } })).status).toBe('completed');
  });

  it("refuses another merchant's refund as missing", async () => {
    const client = await db();
    const refund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: (await paidPayment()).id,
      amount: 100,
    });
    const other = await createMerchant(client, { name: 'Other' });
    await expect(approveRefundRequest(contextOf(client, other.id), refund.id)).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });
});

describe('the test helpers finish a refund at once', () => {
  const reload = async (id: string) => (await db()).refundRequest.findUniqueOrThrow({ where: { id } });

  it('complete a requested refund under the automatic policy, as the provider would', async () => {
    const client = await db();
    const payment = await paidPayment();
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 2000 });
    const done = await finishRefundNow(contextOf(client, merchantId), refund.id, { completed: true });
    expect(done).toMatchObject({ status: 'completed', failureReason: null });
    expect(done.processingAt).not.toBeNull();
    expect(await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      amountReserved: 2000,
      amountRefunded: 2000,
    });
    expect(await eventsOf('refund.completed', refund.id)).toHaveLength(1);
    // the provider job finds nothing left to do
    expect(await finishProcessingRefunds(merchantContexts(client), 0)).toBe(0);
  });

  it('fail a processing refund with its reason and give the amount back', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const payment = await paidPayment();
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 2000 });
    await approveRefundRequest(contextOf(client, merchantId), refund.id);
    const failed = await finishRefundNow(contextOf(client, merchantId), refund.id, {
      failureReason: 'Card account closed',
    });
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Card account closed' });
    expect(await client.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      amountReserved: 0,
      amountRefunded: 0,
    });
    expect(await eventsOf('refund.failed', refund.id)).toHaveLength(1);
  });

  it('refuse a requested refund under the manual policy, and a finished one, with refund_not_pending', async () => {
    const client = await db();
    await setRefundPolicy(contextOf(client, merchantId), 'manual');
    const refund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: (await paidPayment()).id,
      amount: 100,
    });
    await expect(finishRefundNow(contextOf(client, merchantId), refund.id, { completed: true })).rejects.toMatchObject({
      status: 409,
      code: 'refund_not_pending',
    });
    expect((await reload(refund.id)).status).toBe('requested');
    await approveRefundRequest(contextOf(client, merchantId), refund.id);
    await finishRefundNow(contextOf(client, merchantId), refund.id, { completed: true });
    await expect(
      finishRefundNow(contextOf(client, merchantId), refund.id, { failureReason: 'too late' }),
    ).rejects.toMatchObject({
      code: 'refund_not_pending',
    });
    expect((await reload(refund.id)).status).toBe('completed');
  });

  it('finish one refund once when ten helpers and the provider job race for it', async () => {
    const client = await db();
    const payment = await paidPayment();
    const refund = await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 700 });
    await authorizeAutomaticRefunds(merchantContexts(client));
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 10 }, (_, i) =>
        finishRefundNow(
          contextOf(client, merchantId),
          refund.id,
          i % 2 ? { completed: true } : { failureReason: 'no' },
        ),
      ),
      finishProcessingRefunds(merchantContexts(client), 0),
    ]);
    const finishedByHelpers = outcomes.slice(0, 10).filter((outcome) => outcome.status === 'fulfilled').length;
    const job = outcomes[10];
    const finishedByJob = job.status === 'fulfilled' ? (job.value as number) : 0;
    expect(finishedByHelpers + finishedByJob).toBe(1);
    for (const outcome of outcomes.slice(0, 10)) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'refund_not_pending' });
    }
    const finished = await reload(refund.id);
    const paymentAfter = await client.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(paymentAfter.amountRefunded).toBe(finished.status === 'completed' ? 700 : 0);
    expect(paymentAfter.amountReserved).toBe(finished.status === 'completed' ? 700 : 0);
    const events = [
      ...(await eventsOf('refund.completed', refund.id)),
      ...(await eventsOf('refund.failed', refund.id)),
    ];
    expect(events).toHaveLength(1);
  });

  it("refuse another merchant's refund as missing", async () => {
    const client = await db();
    const refund = await createRefundRequest(contextOf(client, merchantId), {
      payment_id: (await paidPayment()).id,
      amount: 100,
    });
    const other = await createMerchant(client, { name: 'Other' });
    await expect(finishRefundNow(contextOf(client, other.id), refund.id, { completed: true })).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });
});

describe('the database backs the rule', () => {
  it('refuses a reservation past the payment amount even if the code were wrong', async () => {
    const client = await db();
    const payment = await paidPayment();
    await expect(
      client.$executeRaw`UPDATE "payments" SET "amount_reserved" = "amount" + 1 WHERE "id" = ${payment.id}`,
    ).rejects.toThrow(/payments_amount_reserved_check/);
    await expect(
      client.$executeRaw`UPDATE "payments" SET "amount_refunded" = 1 WHERE "id" = ${payment.id}`,
    ).rejects.toThrow(/payments_amount_refunded_check/);
  });
});
