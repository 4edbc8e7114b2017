import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  browserTimeZone,
  dayInZone,
  describeTimeZone,
  isTimeZone,
  listTimeZones,
  shortZoneName,
  zonedDayRange,
  zonedDayStart,
} from './time-zone';

// Days in the merchant's zone: what a day filter and the chart's buckets are made of.

describe('zonedDayStart', () => {
  it.each([
    // an ordinary winter day: midnight PST is 08:00 UTC
    ['2026-11-23', 'America/Los_Angeles', '2026-11-23T08:00:00.000Z'],
    // summer time: midnight PDT is 07:00 UTC
    ['2026-07-04', 'America/Los_Angeles', '2026-07-04T07:00:00.000Z'],
    // the day the clocks spring forward at 02:00 starts at midnight PST; the next one at midnight PDT
    ['2026-03-08', 'America/Los_Angeles', '2026-03-08T08:00:00.000Z'],
    ['2026-03-09', 'America/Los_Angeles', '2026-03-09T07:00:00.000Z'],
    // the day they fall back is 25 hours long
    ['2026-11-01', 'America/Los_Angeles', '2026-11-01T07:00:00.000Z'],
    ['2026-11-02', 'America/Los_Angeles', '2026-11-02T08:00:00.000Z'],
    // east of UTC the day starts the evening before, in UTC
    ['2026-11-24', 'Europe/Paris', '2026-11-23T23:00:00.000Z'],
    ['2026-11-24', 'Asia/Kolkata', '2026-11-23T18:30:00.000Z'],
    ['2026-11-24', 'Pacific/Kiritimati', '2026-11-23T10:00:00.000Z'],
    ['2026-11-24', 'UTC', '2026-11-24T00:00:00.000Z'],
    // Santiago's clocks jump from 00:00 to 01:00: that day starts at 01:00 local (04:00 UTC)
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
  ])('%s in %s starts at %s', (day, zone, expected) => {
    expect(zonedDayStart(day, zone).toISOString()).toBe(expected);
  });

  it('is the first instant of its day in every zone, on any day', () => {
    const zones = listTimeZones();
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }),
        (zone, instant) => {
          const day = instant.toISOString().slice(0, 10);
          const start = zonedDayStart(day, zone);
          expect(dayInZone(start, zone)).toBe(day);
          expect(dayInZone(new Date(start.getTime() - 1), zone) < day).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('zonedDayRange', () => {
  it('takes both days whole: a payment at 02:00 UTC on the 24th is on the 23rd in Los Angeles', () => {
    const range = zonedDayRange('2026-11-23', '2026-11-23', 'America/Los_Angeles');
    expect(range).toEqual({ gte: new Date('2026-11-23T08:00:00.000Z'), lt: new Date('2026-11-24T08:00:00.000Z') });
    const paidAt = new Date('2026-11-24T02:00:00.000Z');
    expect(paidAt >= range.gte! && paidAt < range.lt!).toBe(true);
    const utc = zonedDayRange('2026-11-23', '2026-11-23', 'UTC');
    expect(paidAt < utc.lt!).toBe(false);
  });

  it('leaves out an end that is not given', () => {
    expect(zonedDayRange('2026-11-23', undefined, 'Europe/Paris')).toEqual({
      gte: new Date('2026-11-22T23:00:00.000Z'),
    });
    expect(zonedDayRange(undefined, '2026-12-31', 'Europe/Paris')).toEqual({
      lt: new Date('2026-12-31T23:00:00.000Z'),
    });
    expect(zonedDayRange(undefined, undefined, 'Europe/Paris')).toEqual({});
  });
});

describe('days and names', () => {
  it('reads the day of an instant in a zone', () => {
    const instant = new Date('2026-11-24T02:00:00Z');
    expect(dayInZone(instant, 'UTC')).toBe('2026-11-24');
    expect(dayInZone(instant, 'America/Los_Angeles')).toBe('2026-11-23');
    expect(dayInZone(instant, 'Asia/Tokyo')).toBe('2026-11-24');
  });

  it('counts days on the calendar across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-11-24', -29)).toBe('2026-10-26');
  });

  it('takes only the runtime’s zone names for Settings, and browser aliases but never offsets', () => {
    expect(isTimeZone('America/Los_Angeles')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('america/los_angeles')).toBe(false);
    expect(browserTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(browserTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(browserTimeZone('+05:30')).toBeNull();
    expect(browserTimeZone('UTC+5')).toBeNull();
    expect(browserTimeZone("Europe/Paris'; DROP TABLE payments")).toBeNull();
    expect(browserTimeZone(undefined)).toBeNull();
  });

  it('names a zone briefly for labels, and in words for Settings', () => {
    expect(shortZoneName('America/Los_Angeles', new Date('2026-11-24T12:00:00Z'))).toBe('PST');
    expect(shortZoneName('America/Los_Angeles', new Date('2026-07-04T12:00:00Z'))).toBe('PDT');
    expect(shortZoneName('UTC')).toBe('UTC');
    expect(describeTimeZone('America/Los_Angeles')).toBe('Los Angeles (America)');
    expect(describeTimeZone('America/Argentina/Buenos_Aires')).toBe('Argentina / Buenos Aires (America)');
    expect(describeTimeZone('UTC')).toBe('UTC');
  });
});
