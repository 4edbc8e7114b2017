import { describe, expect, it } from 'vitest';
import { readRefundAmount } from './dashboard-amount';

// What the Refund form checks before its dialog names an amount: the server's own words, in minor units.

describe('readRefundAmount', () => {
  it.each([
    ['12.50', { amount: 1250 }],
    ['12.5', { amount: 1250 }],
    ['.5', { amount: 50 }],
    ['37.50', { amount: 3750 }],
    ['', { error: 'Enter an amount like 12.50.' }],
    // an amount, just not one that refunds anything: the browser says what the server would
    ['0', { error: 'The amount must be positive: enter more than 0.00.' }],
    ['0.00', { error: 'The amount must be positive: enter more than 0.00.' }],
    ['-1', { error: 'Enter an amount like 12.50.' }],
    ['1.2345', { error: 'Enter an amount like 12.50.' }],
    ['37.51', { error: 'Only US$37.50 is left to refund on this payment.' }],
  ])('%j → %j', (input, expected) => {
    expect(readRefundAmount(input, 3750, 'USD')).toEqual(expected);
  });

  it('says when nothing is left', () => {
    expect(readRefundAmount('1', 0, 'CAD')).toEqual({ error: 'Nothing is left to refund on this payment.' });
  });
});
