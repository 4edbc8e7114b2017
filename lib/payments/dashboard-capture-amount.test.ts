import { describe, expect, it } from 'vitest';
import { authorizationExpiresAt } from './authorization';
import { readCaptureAmount } from './dashboard-capture-amount';

// What the Capture form checks before its dialog names an amount, and when the page says the hold ends.

describe('readCaptureAmount', () => {
  it.each([
    ['20,00', { amount: 2000 }],
    ['CA$12.50', { error: 'That amount is in CAD, but this one is in USD.' }],
    ['37.50', { amount: 3750 }],
    [
      '1,500',
      { error: '“1,500” could be 1500 or 1.500: type 1500 without a separator, or the amount with two decimals.' },
    ],
    ['0', { error: 'The amount must be positive: enter more than 0.00.' }],
    ['37.51', { error: 'You can capture at most US$37.50, the amount authorized.' }],
  ])('%j → %j', (input, expected) => {
    expect(readCaptureAmount(input, 3750, 'USD')).toEqual(expected);
  });
});

describe('authorizationExpiresAt', () => {
  it('is 7 days after the authorization, to the millisecond', () => {
    expect(authorizationExpiresAt(new Date('2026-11-27T14:25:00.123Z')).toISOString()).toBe('2026-12-04T14:25:00.123Z');
  });
});
