import { afterEach, describe, expect, it, vi } from 'vitest';
import { errors } from '@/lib/core/errors';
import { fieldOfParam, toFormState, UNEXPECTED_FAILURE } from './to-form-state';

// toFormState: the one mapping from what a service threw to a form's answer, for every server action.

const FIELDS = { amount: 'amount', payment_methods: 'methods' } as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toFormState', () => {
  it('puts the userMessage beside the field the param names, keeping what was typed', () => {
    const error = errors.refundExceedsAvailable(
      'Refund of 5000 exceeds the 1250 …',
      'amount',
      'Only US$12.50 is left.',
    );
    expect(toFormState(error, FIELDS, { amount: '50' })).toEqual({
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
    expect(toFormState(error, FIELDS)).toMatchObject({ fieldErrors: { methods: 'USDC cannot take CAD.' } });
  });

  it('says the userMessage above the form when the param is no field of it, never the API message', () => {
    const error = errors.resourceMissing("No such payment: 'pay_x'", 'payment_id', 'This payment was not found.');
    expect(toFormState(error, FIELDS, { amount: '5' })).toEqual({
      status: 'error',
      message: 'This payment was not found.',
      values: { amount: '5' },
    });
    const other = errors.refundNotCancelable(
      'Refund rr_x is completed',
      undefined,
      'This refund is already completed.',
    );
    expect(JSON.stringify(toFormState(other, FIELDS))).not.toContain('rr_x');
  });

  it('answers anything else with a generic sentence, and logs it, stack and all, for us only', () => {
    const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const boom = new Error('connection to 10.0.0.7 refused');
    const state = toFormState(boom, FIELDS, { amount: '5' }, { logged: { payment_id: 'pay_x' } });
    expect(state).toEqual({ status: 'error', message: UNEXPECTED_FAILURE, values: { amount: '5' } });
    expect(JSON.stringify(state)).not.toMatch(/10\.0\.0\.7|at .*form-state/);
    const line = JSON.parse(String(written.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({ level: 'error', payment_id: 'pay_x', error: boom.message, stack: boom.stack });
    // a fault on our side is not a refusal, whatever its sentence
    expect(toFormState(errors.internal(), FIELDS, undefined, { unexpected: 'Nothing was paid.' })).toEqual({
      status: 'error',
      message: 'Nothing was paid.',
    });
  });

  it('lets Next’s redirect through', async () => {
    const { redirect } = await import('next/navigation');
    let thrown: unknown;
    try {
      redirect('/checkout/cs_x');
    } catch (error) {
      thrown = error;
    }
    expect(() => toFormState(thrown, FIELDS)).toThrow(thrown as Error);
  });
});

describe('ApiError', () => {
  it('takes a userMessage from every refusal of content or of a rule: the type requires it', () => {
    // @ts-expect-error a refusal without a sentence for a person does not compile
    errors.refundNotCancelable('Refund rr_x is completed');
    // @ts-expect-error nor does one whose param is left out
    errors.resourceMissing("No such payment: 'pay_x'", 'id');
    expect(errors.invalidJson('The body is not valid JSON').userMessage).toMatch(/Reload the page/);
  });
});
