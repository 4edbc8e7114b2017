import { describe, expect, it } from 'vitest';
import { describeOffset } from '@/lib/dashboard/format';
import { advanceSeconds, describePreview } from './dashboard-actions';

describe('advanceSeconds', () => {
  it('reads a whole amount of minutes, hours or days, up to a year', () => {
    expect(advanceSeconds('90', 'minutes')).toBe(5_400);
    expect(advanceSeconds(' 2 ', 'hours')).toBe(7_200);
    expect(advanceSeconds('365', 'days')).toBe(31_536_000);
    for (const [amount, unit] of [
      ['1.5', 'hours'],
      ['0', 'minutes'],
      ['366', 'days'],
      ['-1', 'days'],
      ['', 'minutes'],
      ['5', 'weeks'],
    ])
      expect(advanceSeconds(amount, unit), `${amount} ${unit}`).toBeNull();
  });
});

describe('describePreview', () => {
  it('says what an advance will do, in one sentence', () => {
    expect(describePreview({ sessions: 3, refunds: 2, deliveries: 0 })).toBe(
      '3 open sessions will expire and 2 refunds will finish.',
    );
    expect(describePreview({ sessions: 1, refunds: 1, deliveries: 1 })).toBe(
      '1 open session will expire, 1 refund will finish and 1 webhook retry will come due.',
    );
    expect(describePreview({ sessions: 0, refunds: 0, deliveries: 1000 })).toBe(
      '1,000 or more webhook retries will come due.',
    );
    expect(describePreview({ sessions: 0, refunds: 0, deliveries: 0 })).toMatch(/^Nothing waits on the clock/);
  });
});

describe('describeOffset', () => {
  it('is the banner’s "+1 h 0 min"', () => {
    expect(describeOffset(3_600)).toBe('+1 h 0 min');
    expect(describeOffset(4_800)).toBe('+1 h 20 min');
    expect(describeOffset(90_061)).toBe('+1 d 1 h 1 min');
    expect(describeOffset(45)).toBe('+45 s');
  });
});
