// The dashboard's one time zone: the merchant's choice in Settings, or else their browser's. Dates shown,
// day filters and the chart's days all use it, so a payment made at 02:00 UTC is on the evening before
// for a merchant in Los Angeles everywhere at once. Pure, so pages, queries and tests agree.

export const UTC = 'UTC';

/** Where the browser reports its own zone to the server, for merchants who have not chosen one. */
export const TIME_ZONE_COOKIE = 'dashboard-time-zone';

let supported: Set<string> | undefined;

/** IANA names the runtime knows (Intl.supportedValuesOf leaves out "UTC" itself). */
function supportedTimeZones(): Set<string> {
  supported ??= new Set([UTC, ...Intl.supportedValuesOf('timeZone')]);
  return supported;
}

/** The zones a merchant can choose in Settings, UTC first. */
export function listTimeZones(): string[] {
  return [UTC, ...Intl.supportedValuesOf('timeZone')];
}

/** A zone a merchant may store: exactly one of the runtime's IANA names. */
export function isTimeZone(name: unknown): name is string {
  return typeof name === 'string' && supportedTimeZones().has(name);
}

/**
 * A zone as a browser reports it, or null. Browsers may name a zone by an alias the runtime's list
 * spells otherwise ("Asia/Kolkata" beside "Asia/Calcutta"); an alias is taken when Intl knows it. Only
 * Area/Location names: Intl also takes offsets like "+05:30", which PostgreSQL's AT TIME ZONE reads
 * with the opposite sign.
 */
export function browserTimeZone(name: unknown): string | null {
  if (isTimeZone(name)) return name;
  if (typeof name !== 'string' || name.length > 64 || !/^[A-Za-z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+){1,2}$/.test(name))
    return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayInZone(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    dayFormatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`;
}

/** YYYY-MM-DD plus (or minus) whole days, on the calendar: no zone involved. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const moved = new Date(Date.UTC(year, month - 1, date + days));
  return `${String(moved.getUTCFullYear()).padStart(4, '0')}-${String(moved.getUTCMonth() + 1).padStart(2, '0')}-${String(moved.getUTCDate()).padStart(2, '0')}`;
}

const HOUR = 3_600_000;

/**
 * The first instant of a calendar day in a zone. Usually local midnight; where the clocks jump over
 * midnight (America/Santiago in September), the moment they land. Found by bisection between the
 * widest offsets there are (UTC−12 and UTC+14), so no offset arithmetic can go wrong at a transition.
 */
export function zonedDayStart(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const midnightUtc = Date.UTC(year, month - 1, date);
  // invariant: low is before the day starts, high is at or after it
  let low = midnightUtc - 15 * HOUR;
  let high = midnightUtc + 13 * HOUR;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (dayInZone(new Date(middle), timeZone) >= day) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** A list's [from, to] day filter, both days whole and inclusive, as instants: from's start up to the start of the day after to. */
export function zonedDayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
): { gte?: Date; lt?: Date } {
  return {
    ...(from ? { gte: zonedDayStart(from, timeZone) } : {}),
    ...(to ? { lt: zonedDayStart(addDays(to, 1), timeZone) } : {}),
  };
}

/** "PST", "GMT+1", "UTC": the zone's short name at that instant (it changes with summer time). */
export function shortZoneName(timeZone: string, at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((entry) => entry.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/** "America/Los_Angeles" as a person reads it: "Los Angeles (America)". UTC stays UTC. */
export function describeTimeZone(timeZone: string): string {
  const [area, ...rest] = timeZone.split('/');
  return rest.length === 0 ? timeZone : `${rest.join(' / ').replaceAll('_', ' ')} (${area})`;
}
