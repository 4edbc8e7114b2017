import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { paidPayment } from '@/lib/payments/paid-payment.fixture';
import { REFUND_AMOUNT_NOT_POSITIVE } from './dashboard-amount';
import { refundFromDashboard, USDC_NOTE_REQUIRED } from './dashboard-form';
import { contextOf } from '@/test/context';

// The dashboard's Refund form holds the API's rules: amounts, reason length, the USDC destination note,
// what is left to refund, and only succeeded payments.

let merchantId: string;

const pay = (method: 'card' | 'usdc', cardNumber = '4242424242424242') =>
  paidPayment(
    merchantId,
    method === 'card' ? { payment_method: 'card', card_number: cardNumber } : { payment_method: 'usdc' },
  );

const refund = async (paymentId: string, fields: Partial<{ amount: string; reason: string; note: string }>) =>
  refundFromDashboard(contextOf(await db(), merchantId), { paymentId, amount: '', reason: '', note: '', ...fields });

beforeAll(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Form Shop', hosts: ['shop.example.com'] })).id;
});

describe('card payments', () => {
  it('refunds what is typed, in major units, with the reason kept', async () => {
    const payment = await pay('card');
    expect(await refund(payment.id, { amount: '12.50', reason: '  Wrong size  ' })).toEqual({
      status: 'ok',
      message: 'Refund of US$12.50 requested.',
      refundId: expect.stringMatching(/^rr_/),
    });
    const [created] = await (await db()).refundRequest.findMany({ where: { paymentId: payment.id } });
    expect(created).toMatchObject({ amount: 1250, reason: 'Wrong size', cryptoRefundDestinationNote: null });
  });

  it('refuses more than is left, saying how much is, and keeps what was typed', async () => {
    const payment = await pay('card');
    await refund(payment.id, { amount: '30' });
    expect(await refund(payment.id, { amount: '20.01', reason: 'again' })).toEqual({
      status: 'error',
      fieldErrors: { amount: 'Only US$20.00 is left to refund on this payment.' },
      values: { amount: '20.01', reason: 'again', note: '' },
    });
    await refund(payment.id, { amount: '20' });
    expect(await refund(payment.id, { amount: '0.01' })).toMatchObject({
      fieldErrors: { amount: 'Nothing is left to refund on this payment.' },
    });
  });

  it('refuses amounts that are not amounts, long reasons, and a destination note', async () => {
    const payment = await pay('card');
    for (const amount of ['', 'ten', '1.2345', '-1'])
      expect(await refund(payment.id, { amount })).toMatchObject({
        fieldErrors: { amount: 'Enter an amount like 12.50.' },
      });
    for (const amount of ['0', '0.00', '0.0'])
      expect(await refund(payment.id, { amount })).toMatchObject({
        fieldErrors: { amount: REFUND_AMOUNT_NOT_POSITIVE },
      });
    expect(REFUND_AMOUNT_NOT_POSITIVE).toMatch(/must be positive/);
    expect(await refund(payment.id, { amount: '1', reason: 'x'.repeat(501) })).toMatchObject({
      fieldErrors: { reason: 'Keep the reason under 500 characters.' },
    });
    expect(await refund(payment.id, { amount: '1', note: 'verified' })).toMatchObject({
      fieldErrors: { note: 'Only USDC payments take a destination note.' },
    });
    expect(await (await db()).refundRequest.count({ where: { paymentId: payment.id } })).toBe(0);
  });

  it('refuses a failed payment', async () => {
    const declined = await pay('card', '4000000000000002');
    expect(await refund(declined.id, { amount: '1' })).toMatchObject({
      status: 'error',
      message: expect.stringContaining('only succeeded payments can be refunded'),
    });
  });
});

describe('USDC payments', () => {
  it('need a note on how the customer’s own destination was verified', async () => {
    const payment = await pay('usdc');
    expect(await refund(payment.id, { amount: '5' })).toMatchObject({ fieldErrors: { note: USDC_NOTE_REQUIRED } });
    expect(
      await refund(payment.id, { amount: '5', note: 'Customer signed a message from 0xabc… on a support call' }),
    ).toMatchObject({ status: 'ok' });
    const [created] = await (await db()).refundRequest.findMany({ where: { paymentId: payment.id } });
    expect(created.cryptoRefundDestinationNote).toBe('Customer signed a message from 0xabc… on a support call');
  });
});
