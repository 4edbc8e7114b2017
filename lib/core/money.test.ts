import { describe, expect, it } from 'vitest';
import { computeTotal, formatMoney, formatUsdc } from './money';

describe('computeTotal', () => {
  it('sums quantity × unit amount, shipping and tax in minor units', () => {
    expect(
      computeTotal(
        [
          { quantity: 2, unitAmount: 1500 },
          { quantity: 3, unitAmount: 199 },
        ],
        500,
        250,
      ),
    ).toBe(4347);
  });
  it('stays exact at the limits', () => {
    expect(computeTotal([{ quantity: 1, unitAmount: 99_999_998 }], 1, 0)).toBe(99_999_999);
  });
});

describe('formatMoney', () => {
  it('names the dollar so CAD and USD are never confused', () => {
    expect(formatMoney(4890, 'CAD')).toBe('CA$48.90');
    expect(formatMoney(4890, 'USD')).toBe('US$48.90');
    expect(formatMoney(5, 'USD')).toBe('US$0.05');
    expect(formatMoney(123456789, 'USD')).toBe('US$1,234,567.89');
  });
});

describe('formatUsdc', () => {
  it('shows the cents an amount in cents has, and no trailing zeros beyond them', () => {
    expect(formatUsdc(4890)).toBe('48.90');
    expect(formatUsdc(7)).toBe('0.07');
    expect(formatUsdc(5000)).toBe('50.00');
  });
  it('stays exact at the limit, with thousands grouped', () => {
    expect(formatUsdc(99_999_999)).toBe('999,999.99');
    expect(formatUsdc(123_450)).toBe('1,234.50');
  });
});
