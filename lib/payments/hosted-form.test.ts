import { describe, expect, it } from 'vitest';
import {
  cardFormErrors,
  customerEmailError,
  EXPIRY_MONTH_INVALID,
  interacFormErrors,
  parseExpiry,
} from './hosted-form';

// The hosted form's rules, run by the browser and again by the server action.

const at = new Date('2026-11-22T12:00:00Z');
const good = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Ada Lovelace' };

describe('parseExpiry', () => {
  it.each([
    ['12 / 30', { month: 12, year: 2030 }],
    ['1/27', { month: 1, year: 2027 }],
    ['0928', { month: 9, year: 2028 }],
  ])('reads %s', (input, expected) => expect(parseExpiry(input)).toEqual(expected));

  it.each(['13 / 30', '00 / 30', '12 / 3', '123', 'MM / YY', ''])('refuses %j', (input) =>
    expect(parseExpiry(input)).toBeNull(),
  );
});

describe('cardFormErrors', () => {
  it('passes a complete, Luhn-valid, unexpired card', () => {
    expect(cardFormErrors(good, at)).toEqual({});
  });

  it('names every empty field', () => {
    expect(cardFormErrors({ number: '', expiry: '', cvc: '', name: '  ' }, at)).toEqual({
      number: 'Enter your card number.',
      expiry: 'Enter the expiry date.',
      cvc: 'Enter the CVC.',
      name: 'Enter the name on your card.',
    });
  });

  it('refuses a number that fails the Luhn check', () => {
    expect(cardFormErrors({ ...good, number: '4242 4242 4242 4241' }, at).number).toBe('Your card number is invalid.');
  });

  it('takes a card through the last day of its expiry month, not after', () => {
    expect(cardFormErrors({ ...good, expiry: '11 / 26' }, at).expiry).toBeUndefined();
    expect(cardFormErrors({ ...good, expiry: '10 / 26' }, at).expiry).toBe('Your card has expired.');
  });

  it('says a month that is not one is invalid, and a shape that is not MM / YY is the wrong format', () => {
    for (const expiry of ['13 / 30', '00 / 30', '1330', '99/30'])
      expect(cardFormErrors({ ...good, expiry }, at).expiry, expiry).toBe(EXPIRY_MONTH_INVALID);
    expect(EXPIRY_MONTH_INVALID).toMatch(/month is invalid/);
    for (const expiry of ['12 / 3', '123', 'MM / YY'])
      expect(cardFormErrors({ ...good, expiry }, at).expiry, expiry).toBe('Use the format MM / YY.');
  });

  it('wants four CVC digits for American Express and three for the others', () => {
    const amex = { ...good, number: '3782 822463 10005' };
    expect(cardFormErrors({ ...amex, cvc: '123' }, at).cvc).toBe('The CVC is incomplete.');
    expect(cardFormErrors({ ...amex, cvc: '1234' }, at).cvc).toBeUndefined();
    expect(cardFormErrors({ ...good, cvc: '1234' }, at).cvc).toBe('The CVC is incomplete.');
  });
});

describe('interacFormErrors', () => {
  it('wants one of the sandbox banks', () => {
    expect(interacFormErrors({ bank: 'Desjardins' })).toEqual({});
    expect(interacFormErrors({ bank: '' })).toEqual({ bank: 'Choose your bank.' });
    expect(interacFormErrors({ bank: 'A bank we made up' })).toEqual({ bank: 'Choose your bank.' });
  });
});

describe('customerEmailError', () => {
  it('wants an e-mail address for USDC and Interac, and takes a card payment without one', () => {
    expect(customerEmailError('', 'usdc')).toBe('Enter your e-mail address.');
    expect(customerEmailError('  ', 'interac')).toBe('Enter your e-mail address.');
    expect(customerEmailError('', 'card')).toBeUndefined();
  });

  it('refuses an address that cannot be one, for every method', () => {
    expect(customerEmailError('marie@', 'card')).toBe('Enter a valid e-mail address.');
    expect(customerEmailError(`${'a'.repeat(250)}@x.ca`, 'usdc')).toBe('Enter a valid e-mail address.');
    expect(customerEmailError(' marie@example.ca ', 'interac')).toBeUndefined();
  });
});
