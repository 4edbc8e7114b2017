import { describe, expect, it } from 'vitest';
import { cardBrand, cardOutcome, isExpired, normalizeCardNumber, passesLuhn, TEST_CARDS } from './cards';

describe('cards', () => {
  it('checks Luhn', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('42424242')).toBe(false);
    expect(passesLuhn('4242 4242 4242 4242')).toBe(false);
    for (const card of TEST_CARDS) expect(passesLuhn(card.number)).toBe(true);
  });

  it('normalizes spaces and dashes', () => {
    expect(normalizeCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
  });

  it('knows the brands', () => {
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('9999999999999995')).toBe('unknown');
  });

  it('simulates the test cards of /docs#testing', () => {
    expect(cardOutcome('4242424242424242')).toEqual({ status: 'succeeded', refundsFail: false });
    expect(cardOutcome('4000000000000002')).toEqual({ status: 'failed', failureCode: 'card_declined' });
    expect(cardOutcome('4000000000009995')).toEqual({ status: 'failed', failureCode: 'insufficient_funds' });
    expect(cardOutcome('4000000000005126')).toEqual({ status: 'succeeded', refundsFail: true });
    expect(cardOutcome('5555555555554444')).toEqual({ status: 'succeeded', refundsFail: false });
  });

  it('treats a card as good through its expiry month', () => {
    const at = new Date('2026-11-22T00:00:00Z');
    expect(isExpired(11, 2026, at)).toBe(false);
    expect(isExpired(10, 2026, at)).toBe(true);
    expect(isExpired(1, 2027, at)).toBe(false);
    expect(isExpired(12, 2025, at)).toBe(true);
  });
});
