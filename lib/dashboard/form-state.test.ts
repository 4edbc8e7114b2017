import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '@/lib/core/errors';
import { fieldOfParam, formRefusal, sayRefusal } from './form-state';

// formRefusal: the one mapping from a service's refusal to a form's answer.

const FIELDS = { amount: 'amount', payment_methods: 'methods' } as const;

describe('formRefusal', () => {
  it('puts the userMessage beside the field the param names, keeping what was typed', () => {
    const error = errors.refundExceedsAvailable(
      'Refund of 5000 exceeds the 1250 …',
      'amount',
      'Only US$12.50 is left.',
    );
    expect(formRefusal(error, FIELDS, { amount: '50' })).toEqual({
      status: 'error',
      fieldErrors: { amount: 'Only US$12.50 is left.' },
      values: { amount: '50' },
    });
  });

  it('finds "payment_methods.1" under payment_methods', () => {
    expect(fieldOfParam('payment_methods.1', FIELDS)).toBe('methods');
    expect(fieldOfParam('payment_methods', FIELDS)).toBe('methods');
    expect(fieldOfParam('id', FIELDS)).toBeUndefined();
    expect(fieldOfParam(undefined, FIELDS)).toBeUndefined();
    const error = errors.paymentMethodUnavailable('usdc cannot take CAD', 'payment_methods.1', 'USDC cannot take CAD.');
    expect(formRefusal(error, FIELDS)).toMatchObject({ fieldErrors: { methods: 'USDC cannot take CAD.' } });
  });

  it('says it above the form when the param is no field of the form', () => {
    const error = errors.resourceMissing("No such payment: 'pay_x'", 'payment_id', 'This payment was not found.');
    expect(formRefusal(error, FIELDS, { amount: '5' })).toEqual({
      status: 'error',
      message: 'This payment was not found.',
      values: { amount: '5' },
    });
  });

  it('never shows the API message: without a userMessage, a sentence for the code', () => {
    const missing = errors.resourceMissing("No such payment link: 'plink_x'", 'id');
    expect(sayRefusal(missing)).not.toContain('plink_x');
    expect(formRefusal(missing, FIELDS)).toMatchObject({ message: sayRefusal(missing) });
    const other = errors.refundNotCancelable('Refund rr_x is completed');
    expect(sayRefusal(other)).not.toContain('rr_x');
  });

  it('throws on what is not a refusal (a bug, or a 5xx), for the error page', () => {
    const boom = new Error('boom');
    expect(() => formRefusal(boom, FIELDS)).toThrow(boom);
    expect(() => formRefusal(errors.internal(), FIELDS)).toThrow(ApiError);
  });
});
