import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { errorBody } from '@/lib/http/error-body';
import { db } from '@/lib/db';
import { createMerchant } from '@/lib/merchants/service';
import { paidPayment as paidLamp } from '@/lib/payments/paid-payment.fixture';
import { USDC_NOTE_REQUIRED } from './messages';
import { createRefundRequest } from './service';
import { contextOf } from '@/test/context';

// The refund service words its refusals for a person (userMessage) from what it knows; the API body
// still carries only the developer's message.

let merchantId: string;
const paidPayment = () => paidLamp(merchantId);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Refund Shop', hosts: ['shop.example.com'] })).id;
});

describe('createRefundRequest userMessage', () => {
  it('names the amount left, in the payment’s currency, when more is asked', async () => {
    const client = await db();
    const payment = await paidPayment();
    await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 3750 });
    const error = await refusal(
      createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 2000 }),
    );
    expect(error).toMatchObject({ code: 'refund_exceeds_available', param: 'amount' });
    expect(error.userMessage).toBe('Only US$12.50 is left to refund on this payment.');
    // the API's body is unchanged: its message, never the userMessage
    const body = errorBody(error, 'req_1');
    expect(body.error.message).toBe(
      `Refund of 2000 exceeds the 1250 still available to refund on payment ${payment.id}`,
    );
    expect(JSON.stringify(body)).not.toContain('US$');

    await createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1250 });
    const none = await refusal(
      createRefundRequest(contextOf(client, merchantId), { payment_id: payment.id, amount: 1 }),
    );
    expect(none.userMessage).toBe('Nothing is left to refund on this payment.');
  });

  it('words the note rules and a missing payment', async () => {
    const client = await db();
    const payment = await paidPayment();
    const note = await refusal(
      createRefundRequest(contextOf(client, merchantId), {
        payment_id: payment.id,
        amount: 100,
        crypto_refund_destination_note: 'checked',
      }),
    );
    expect(note).toMatchObject({ code: 'parameter_invalid', param: 'crypto_refund_destination_note' });
    expect(note.userMessage).toBe('Only USDC payments take a destination note.');
    expect(USDC_NOTE_REQUIRED).toMatch(/^USDC payments are never refunded/);

    const missing = await refusal(
      createRefundRequest(contextOf(client, merchantId), { payment_id: 'pay_nope', amount: 100 }),
    );
    expect(missing).toMatchObject({ code: 'resource_missing', userMessage: 'This payment was not found.' });
  });
});
