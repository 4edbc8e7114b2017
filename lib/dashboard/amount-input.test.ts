import { describe, expect, it } from 'vitest';
import { AMOUNT_FORMAT, AMOUNT_TOO_LARGE, readMajorAmount, understoodAmount } from './amount-input';

describe('readMajorAmount: an amount as people type it in their locale', () => {
  it.each([
    ['45.50', 4550],
    ['45,50', 4550],
    ['45,5', 4550],
    ['45', 4500],
    ['1 234,50', 123_450],
    ['1\u00a0234,50', 123_450],
    ['1\u202f234,50', 123_450],
    ['1,234.50', 123_450],
    ['1.234,50', 123_450],
    ['999.999,99', 99_999_999],
    ['$45.50', 4550],
    ['45,50 $', 4550],
    ['CA$45.50', 4550],
    ['USD 45.50', 4550],
    ['0,99', 99],
    ['.5', 50],
    ['999999.99', 99_999_999],
  ])('%j is %d cents', (input, cents) => {
    expect(readMajorAmount(input)).toEqual({ amount: cents });
  });

  it('asks about a lone separator before three digits, which locales read two ways', () => {
    expect(readMajorAmount('1,500')).toEqual({
      error: '“1,500” could be 1500 or 1.500: type 1500 without a separator, or the amount with two decimals.',
    });
    expect(readMajorAmount('4.550')).toHaveProperty('error', expect.stringContaining('could be 4550 or 4.550'));
  });

  it.each(['', 'abc', '45.5055', '45,', '12,50.0.0', '1,23,456', '1.234.56', '-5', '1e3', '4 5x'])(
    '%j is not an amount',
    (input) => {
      expect(readMajorAmount(input)).toEqual({ error: AMOUNT_FORMAT });
    },
  );

  it('refuses more than the largest amount, and a mark of the other currency', () => {
    expect(readMajorAmount('1 000 000')).toEqual({ error: AMOUNT_TOO_LARGE });
    expect(readMajorAmount('1,234,567')).toEqual({ error: AMOUNT_TOO_LARGE });
    expect(readMajorAmount('1.234.567,89')).toEqual({ error: AMOUNT_TOO_LARGE });
    expect(AMOUNT_TOO_LARGE).toBe('Enter at most 999,999.99.');
    expect(readMajorAmount('US$5', 'CAD')).toEqual({ error: 'That amount is in USD, but this one is in CAD.' });
    expect(readMajorAmount('CA$5', 'CAD')).toEqual({ amount: 500 });
  });

  it('says what it understood, in the currency, before anything is saved', () => {
    expect(understoodAmount('45,50', 'CAD')).toBe('CA$45.50');
    expect(understoodAmount('1 234,5', 'USD')).toBe('US$1,234.50');
    expect(understoodAmount('1,500', 'CAD')).toBeNull();
    expect(understoodAmount('', 'CAD')).toBeNull();
  });
});
