import type { PaymentMethod } from '@/lib/generated/prisma/client';
import { formatMoney, MAX_AMOUNT } from '@/lib/money';

// Words and numbers as the dashboard shows them. Pure, so pages and tests agree.

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** Status colours: succeeded/complete green; requested/processing/open blue; failed/declined red; expired/canceled grey. */
const STATUS_TONES: Record<string, Tone> = {
  succeeded: 'success',
  complete: 'success',
  completed: 'success',
  enabled: 'success',
  active: 'success',
  open: 'info',
  requested: 'info',
  processing: 'info',
  pending: 'info',
  failed: 'danger',
  declined: 'danger',
  expired: 'neutral',
  canceled: 'neutral',
  refunded: 'neutral',
  partially_refunded: 'neutral',
  revoked: 'neutral',
  disabled: 'neutral',
};

export function statusTone(status: string): Tone {
  return STATUS_TONES[status] ?? 'neutral';
}

/** "partially_refunded" → "Partially refunded". */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
}

/** HTTP answers: 2xx green, 4xx amber, 5xx and no answer red. */
export function httpStatusTone(status: number | null): Tone {
  if (status === null) return 'danger';
  if (status >= 200 && status < 300) return 'success';
  if (status >= 400 && status < 500) return 'warning';
  return 'danger';
}

export const METHOD_LABELS: Record<PaymentMethod, string> = { card: 'Card', usdc: 'USDC', interac: 'Interac' };

/** "Visa •••• 4242", "USDC · 0x12ab…cd34", "Interac · RBC" from a payment's stored details. */
export function describeMethodDetails(method: PaymentMethod, details: unknown): string {
  const of = (details ?? {}) as Record<string, Record<string, unknown> | undefined>;
  if (method === 'card') {
    const card = of.card ?? {};
    const brand = typeof card.brand === 'string' ? brandName(card.brand) : 'Card';
    return typeof card.last4 === 'string' ? `${brand} •••• ${card.last4}` : brand;
  }
  if (method === 'usdc') {
    const address = of.usdc?.payer_address;
    return typeof address === 'string' ? `USDC · ${shortenMiddle(address, 6, 4)}` : 'USDC';
  }
  const bank = of.interac?.bank;
  return typeof bank === 'string' ? `Interac · ${bank}` : 'Interac';
}

function brandName(brand: string): string {
  const names: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    discover: 'Discover',
  };
  return names[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

export function shortenMiddle(value: string, head: number, tail: number): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

export { formatMoney };

/**
 * A typed amount in major units ("12.50", "1,234", "0.5") as minor units, or null when it is not one.
 * Refund and payment amounts are integers in cents; this is the only place people's decimals become cents.
 */
export function parseMajorAmount(input: string): number | null {
  const cleaned = input.trim().replace(/,/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned) ?? /^()\.(\d{1,2})$/.exec(cleaned);
  if (!match) return null;
  const cents = Number(match[1] || '0') * 100 + Number((match[2] ?? '').padEnd(2, '0') || '0');
  return cents <= MAX_AMOUNT ? cents : null;
}

/** Minor units as the decimal a person would type back: 1250 → "12.50". */
export function toMajorInput(minorUnits: number): string {
  return (minorUnits / 100).toFixed(2);
}

/**
 * "3 minutes ago", "in 2 hours", "just now": for recent times; older ones read better as dates, which are
 * days in `timeZone` (the dashboard's zone; the runtime's own when not given).
 */
export function relativeTime(date: Date, now: Date = new Date(), timeZone?: string): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const absolute = Math.abs(seconds);
  if (absolute < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (absolute < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (absolute < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  if (absolute < 7 * 86_400) return format.format(Math.round(seconds / 86_400), 'day');
  const year = (instant: Date) => new Intl.DateTimeFormat('en', { year: 'numeric', timeZone }).format(instant);
  return date.toLocaleDateString('en', {
    month: 'short',
    day: 'numeric',
    year: year(date) === year(now) ? undefined : 'numeric',
    timeZone,
  });
}

/** The exact time with its zone, for the tooltip beside a relative one: "Nov 23, 2026, 6:00:00 PM PST". */
export function exactTime(date: Date, timeZone?: string): string {
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'long', timeZone });
}

/** How far ahead, in the sandbox-time banner: 3600 → "+1 h 0 min", 90061 → "+1 d 1 h 1 min", 45 → "+45 s". */
export function describeOffset(total: number): string {
  if (total < 60) return `+${total} s`;
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  return `+${days > 0 ? `${days} d ` : ''}${hours} h ${minutes} min`;
}
