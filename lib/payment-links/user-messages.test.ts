import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { db } from '@/lib/db';
import { createMerchant, setPaymentMethods } from '@/lib/merchants/service';
import { createPaymentLinkFromForm, updatePaymentLinkFromForm } from './dashboard-form';
import { createPaymentLinkInput } from './schemas';
import { createPaymentLink, updatePaymentLink } from './service';
import { contextOf } from '@/test/context';

// The payment link service words its refusals for a person (userMessage); the dashboard form shows
// exactly that beside the field the param names.

let merchantId: string;

const input = (overrides: Record<string, unknown> = {}) =>
  createPaymentLinkInput.parse({ name: 'Yoga class', amount: 2500, currency: 'CAD', ...overrides });

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Yoga class',
  description: '',
  amount: '25',
  currency: 'CAD',
  paymentMethods: null,
  afterPaymentUrl: '',
  ...overrides,
});

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Studio', hosts: ['studio.example.com'] })).id;
});

describe('payment link refusals for a person', () => {
  it('an after-payment address off the approved websites', async () => {
    const client = await db();
    const error = await refusal(
      createPaymentLink(contextOf(client, merchantId), input({ after_payment_url: 'https://elsewhere.example.com/x' })),
    );
    expect(error).toMatchObject({ code: 'url_not_approved', param: 'after_payment_url' });
    expect(error.message).toBe(
      'after_payment_url host elsewhere.example.com is not an approved website of this account',
    );
    expect(error.userMessage).toBe(
      'This address is not on one of your approved websites. Use one of them, or leave it empty.',
    );
    expect(
      await createPaymentLinkFromForm(
        contextOf(client, merchantId),
        form({ afterPaymentUrl: 'https://elsewhere.example.com/x' }),
      ),
    ).toEqual({ state: { status: 'error', fieldErrors: { afterPaymentUrl: error.userMessage } } });
  });

  it('no approved method takes the currency, or a chosen one does not', async () => {
    const client = await db();
    await setPaymentMethods(contextOf(client, merchantId), ['interac']);
    const none = await refusal(createPaymentLink(contextOf(client, merchantId), input({ currency: 'USD' })));
    expect(none.userMessage).toBe('None of your approved payment methods takes USD.');
    expect(await createPaymentLinkFromForm(contextOf(client, merchantId), form({ currency: 'USD' }))).toEqual({
      state: { status: 'error', fieldErrors: { paymentMethods: 'None of your approved payment methods takes USD.' } },
    });

    const notApproved = await refusal(
      createPaymentLink(contextOf(client, merchantId), input({ payment_methods: ['card'] })),
    );
    expect(notApproved).toMatchObject({ param: 'payment_methods.0' });
    expect(notApproved.userMessage).toBe('Card is not one of your approved payment methods.');
    const cannot = await refusal(
      createPaymentLink(contextOf(client, merchantId), input({ currency: 'USD', payment_methods: ['interac'] })),
    );
    expect(cannot.userMessage).toBe('Interac cannot take USD.');
  });

  it('a link that is not there', async () => {
    const client = await db();
    const missing = await refusal(updatePaymentLink(contextOf(client, merchantId), 'plink_nope', { active: false }));
    expect(missing).toMatchObject({ code: 'resource_missing', userMessage: 'This payment link was not found.' });
    const edit = { name: 'X', description: '', amount: '1.00', quantity: null };
    expect(await updatePaymentLinkFromForm(contextOf(client, merchantId), 'plink_nope', edit)).toEqual({
      status: 'error',
      message: 'This payment link was not found.',
    });
  });
});
