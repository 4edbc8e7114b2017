import { describe, expect, it } from 'vitest';
import { describeMethodDetails, exactTime, parseMajorAmount, relativeTime, toMajorInput } from './format';
import { hrefWith } from './list-params';
import { safeReturnPath } from './return-path';

describe('parseMajorAmount: what a person types into an amount field', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    [' 1,234.05 ', 123_405],
    ['.5', 50],
    ['0.01', 1],
    ['999999.99', 99_999_999],
  ])('%s is %d cents', (input, cents) => {
    expect(parseMajorAmount(input)).toBe(cents);
  });

  it.each(['', 'abc', '12.345', '-5', '1e3', '12.', '1000000.00', '12,50.0.0', '1,500'])(
    '%j is not an amount',
    (input) => {
      expect(parseMajorAmount(input)).toBeNull();
    },
  );

  it('round-trips with toMajorInput', () => {
    for (const cents of [1, 10, 99, 100, 3750, 99_999_999]) expect(parseMajorAmount(toMajorInput(cents))).toBe(cents);
  });
});

describe('safeReturnPath: where sign-in may send someone', () => {
  it.each([
    [undefined, '/dashboard'],
    ['/dashboard/payments?status=failed', '/dashboard/payments?status=failed'],
    ['http://127.0.0.1:3000/dashboard/refunds', '/dashboard/refunds'],
    ['https://evil.example.com/dashboard', '/dashboard'],
    ['//evil.example.com/dashboard', '/dashboard'],
    ['/dashboard//evil.example.com', '/dashboard'],
    ['/\\evil.example.com', '/dashboard'],
    ['/login', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
  ])('%s → %s', (input, path) => {
    expect(safeReturnPath(input)).toBe(path);
  });
});

describe('describeMethodDetails', () => {
  it('names the card, the wallet and the bank without more than the dashboard should show', () => {
    expect(
      describeMethodDetails('card', { card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } }),
    ).toBe('Visa •••• 4242');
    expect(
      describeMethodDetails('usdc', { usdc: { payer_address: '0x1234567890abcdef1234567890abcdef12345678' } }),
    ).toBe('USDC · 0x1234…5678');
    expect(
      describeMethodDetails('interac', { interac: { bank: 'Sandbox Bank', email_masked: 'a***@example.com' } }),
    ).toBe('Interac · Sandbox Bank');
    expect(describeMethodDetails('card', null)).toBe('Card');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it.each([
    [new Date('2026-11-22T11:59:30Z'), 'just now'],
    [new Date('2026-11-22T11:55:00Z'), '5 minutes ago'],
    [new Date('2026-11-22T09:00:00Z'), '3 hours ago'],
    [new Date('2026-11-21T10:00:00Z'), 'yesterday'],
    [new Date('2026-11-22T12:30:00Z'), 'in 30 minutes'],
  ])('%s reads %s', (date, words) => {
    expect(relativeTime(date, now)).toBe(words);
  });

  it('gives a date beyond a week', () => {
    expect(relativeTime(new Date('2026-10-01T12:00:00Z'), now)).toBe('Oct 1');
    expect(relativeTime(new Date('2025-10-01T12:00:00Z'), now)).toBe('Oct 1, 2025');
  });

  it('gives the date in the dashboard’s zone: 02:00 UTC is the day before in Los Angeles', () => {
    expect(relativeTime(new Date('2026-10-02T02:00:00Z'), now, 'UTC')).toBe('Oct 2');
    expect(relativeTime(new Date('2026-10-02T02:00:00Z'), now, 'America/Los_Angeles')).toBe('Oct 1');
    // New Year's Day in UTC is still last year in Los Angeles, so the year shows
    expect(relativeTime(new Date('2026-01-01T03:00:00Z'), now, 'UTC')).toBe('Jan 1');
    expect(relativeTime(new Date('2026-01-01T03:00:00Z'), now, 'America/Los_Angeles')).toBe('Dec 31, 2025');
  });
});

describe('exactTime', () => {
  it('says which zone the time is in', () => {
    expect(exactTime(new Date('2026-11-24T02:00:00Z'), 'America/Los_Angeles')).toMatch(
      /^Nov 23, 2026, 6:00:00\sPM PST$/,
    );
    expect(exactTime(new Date('2026-11-24T02:00:00Z'), 'UTC')).toMatch(/^Nov 24, 2026, 2:00:00\sAM UTC$/);
    expect(exactTime(new Date('2026-11-24T02:00:00Z'), 'Europe/Paris')).toMatch(/^Nov 24, 2026, 3:00:00\sAM GMT\+1$/);
  });
});

describe('hrefWith', () => {
  it('keeps the filters, drops empty ones and page 1', () => {
    expect(hrefWith('/dashboard/payments', { status: 'failed', q: undefined, page: 3 }, { page: 1 })).toBe(
      '/dashboard/payments?status=failed',
    );
    expect(hrefWith('/dashboard/payments', { status: 'failed', q: 'a b' }, { page: 2 })).toBe(
      '/dashboard/payments?status=failed&q=a+b&page=2',
    );
  });
});
