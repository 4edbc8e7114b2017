import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { cancelExpiredAuthorizations, capturePayment } from './capture';
import { authorizedPayment } from './paid-payment.fixture';
import { advanceTestClock } from '@/lib/test-clocks/service';
import { cancelFromDashboard, captureFromDashboard } from './dashboard-actions';
import { contextOf, contextOnClock } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

// What Capture and Cancel authorization on a payment's page answer. The services decide (the same as the API's);
// the dashboard reads a person's amount, sends each confirmed submission once, and says why not in words.

let merchantId: string;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Hold Shop', hosts: ['shop.example.com'] })).id;
});

async function paymentOf(id: string) {
  return (await db()).payment.findUniqueOrThrow({ where: { id } });
}

async function eventCount(type: string, paymentId: string) {
  const events = await (await db()).event.findMany({ where: { merchantId, type } });
  return events.filter((event) => JSON.stringify(event.data).includes(paymentId)).length;
}

describe('captureFromDashboard', () => {
  it('captures the amount typed as people write it and releases the rest', async () => {
    const payment = await authorizedPayment(merchantId);
    const answer = await captureFromDashboard(await contextOnClock(await db(), merchantId), {
      paymentId: payment.id,
      amount: '12,50',
      submission: randomUUID(),
    });
    expect(answer).toEqual({
      status: 'ok',
      message: 'Captured US$12.50. The other US$37.50 of the authorization is released to the customer.',
    });
    expect(await paymentOf(payment.id)).toMatchObject({ status: 'succeeded', amountCaptured: 1250 });
  });

  it('answers a submission sent twice as the first was, capturing once', async () => {
    const payment = await authorizedPayment(merchantId);
    const form = { paymentId: payment.id, amount: '50.00', submission: randomUUID() };
    const [first, second] = await Promise.all([
      captureFromDashboard(await contextOnClock(await db(), merchantId), form),
      captureFromDashboard(await contextOnClock(await db(), merchantId), form),
    ]);
    const whole = { status: 'ok', message: 'Captured US$50.00, the whole authorization.' };
    expect(first).toEqual(whole);
    expect(second).toEqual(whole);
    expect(await captureFromDashboard(await contextOnClock(await db(), merchantId), form)).toEqual(whole);
    expect(await eventCount('payment.succeeded', payment.id)).toBe(1);
  });

  it('tells a second submission that the payment was already captured', async () => {
    const payment = await authorizedPayment(merchantId);
    await capturePayment(contextOf(await db(), merchantId), payment.id, { amount_to_capture: 1000 });
    expect(
      await captureFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        amount: '5',
        submission: randomUUID(),
      }),
    ).toEqual({
      status: 'error',
      message: 'This payment was already captured (US$10.00), from another tab or over the API.',
      values: { amount: '5' },
    });
  });

  it('keeps what was typed beside the amount when it is not one that can be captured', async () => {
    const payment = await authorizedPayment(merchantId);
    const capture = async (amount: string) =>
      captureFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        amount,
        submission: randomUUID(),
      });
    expect(await capture('1,500')).toMatchObject({
      status: 'error',
      fieldErrors: { amount: expect.stringContaining('could be 1500 or 1.500') },
      values: { amount: '1,500' },
    });
    expect(await capture('0.00')).toMatchObject({
      fieldErrors: { amount: 'The amount must be positive: enter more than 0.00.' },
    });
    expect(await capture('50.01')).toMatchObject({
      status: 'error',
      fieldErrors: { amount: 'You can capture at most US$50.00.' },
      values: { amount: '50.01' },
    });
    expect((await paymentOf(payment.id)).status).toBe('requires_capture');
  });

  it('says the authorization expired when its days ran out on the merchant’s clock, before the sweep', async () => {
    const payment = await authorizedPayment(merchantId);
    await advanceTestClock(contextOf(await db(), merchantId), 7 * 86_400 + 60);
    expect(
      await captureFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        amount: '50',
        submission: randomUUID(),
      }),
    ).toEqual({
      status: 'error',
      message:
        'The authorization expired meanwhile (it holds for 7 days) and its hold is released, so nothing can be captured.',
      values: { amount: '50' },
    });
    expect((await paymentOf(payment.id)).amountCaptured).toBe(0);
  });

  it('refuses a form without its submission key, and another merchant’s payment', async () => {
    const payment = await authorizedPayment(merchantId);
    expect(
      await captureFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        amount: '5',
        submission: 'x',
      }),
    ).toMatchObject({ status: 'error', message: 'This form could not be read. Reload the page and try again.' });
    const other = (await createMerchant(await db(), { name: 'Other Shop', hosts: ['other.example.com'] })).id;
    expect(
      await captureFromDashboard(await contextOnClock(await db(), other), {
        paymentId: payment.id,
        amount: '5',
        submission: randomUUID(),
      }),
    ).toMatchObject({ status: 'error', message: expect.stringMatching(/not found/) });
    expect((await paymentOf(payment.id)).status).toBe('requires_capture');
  });
});

describe('cancelFromDashboard', () => {
  it('releases the hold once, however often the submission is sent, and says why a capture no longer can', async () => {
    const payment = await authorizedPayment(merchantId);
    const form = { paymentId: payment.id, submission: randomUUID() };
    const done = {
      status: 'ok',
      message: 'Authorization canceled: the hold of US$50.00 is released, and the order can be paid again.',
    };
    expect(await cancelFromDashboard(await contextOnClock(await db(), merchantId), form)).toEqual(done);
    expect(await cancelFromDashboard(await contextOnClock(await db(), merchantId), form)).toEqual(done);
    expect(await eventCount('payment.canceled', payment.id)).toBe(1);
    expect(await paymentOf(payment.id)).toMatchObject({
      status: 'canceled',
      cancellationReason: 'requested_by_merchant',
    });
    expect(
      await cancelFromDashboard(await contextOnClock(await db(), merchantId), { ...form, submission: randomUUID() }),
    ).toEqual({
      status: 'error',
      message: 'This authorization was already canceled.',
    });
    expect(
      await captureFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        amount: '5',
        submission: randomUUID(),
      }),
    ).toMatchObject({ message: 'This authorization was canceled meanwhile, so there is nothing to capture.' });
  });

  it('tells a cancel that came after a capture to refund instead', async () => {
    const payment = await authorizedPayment(merchantId);
    await capturePayment(contextOf(await db(), merchantId), payment.id, {});
    expect(
      await cancelFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        submission: randomUUID(),
      }),
    ).toEqual({
      status: 'error',
      message:
        'This payment was captured meanwhile, so its authorization can no longer be canceled. Refund it instead.',
    });
  });

  it('says an authorization the sweep canceled had expired', async () => {
    const payment = await authorizedPayment(merchantId);
    await advanceTestClock(contextOf(await db(), merchantId), 7 * 86_400 + 60);
    expect(await cancelExpiredAuthorizations(merchantContexts(await db()))).toBeGreaterThanOrEqual(1);
    expect(
      await cancelFromDashboard(await contextOnClock(await db(), merchantId), {
        paymentId: payment.id,
        submission: randomUUID(),
      }),
    ).toEqual({
      status: 'error',
      message: 'The authorization already expired (it holds for 7 days) and its hold is released.',
    });
  });
});
