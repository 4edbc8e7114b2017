import type { PaymentMethod } from '@/lib/generated/prisma/client';
import { formatMoney } from '@/lib/core/money';
import { readMajorAmount } from './amount-input';

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
  requires_capture: 'info',
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

/** Statuses whose words are not their code's: an authorization waiting for capture is "Uncaptured", as on Stripe. */
const STATUS_LABELS: Record<string, string> = { requires_capture: 'Uncaptured' };

/** "partially_refunded" → "Partially refunded". */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
}

/**
 * The order of a payment link's sale as people know it: "Concert ticket #3" for `pl_…-3` (its order
 * reference is the link's id and the sale's number). Any other reference is shown as it is.
 */
export function orderLabel(orderReference: string, linkName: string | undefined): string {
  const number = /-(\d+)$/.exec(orderReference)?.[1];
  return linkName && number ? `${linkName} #${number}` : orderReference;
}

/**
 * A refund's reason in people's words: integrations often send a code (Stripe's `requested_by_customer`,
 * `duplicate`, `fraudulent`), which reads as a sentence; anything a person wrote is shown as written.
 */
export function refundReasonLabel(reason: string): string {
  const known: Record<string, string> = {
    requested_by_customer: 'Requested by customer',
    duplicate: 'Duplicate payment',
    fraudulent: 'Fraudulent payment',
  };
  if (known[reason]) return known[reason];
  return /^[a-z]+(?:_[a-z]+)+$/.test(reason) ? statusLabel(reason) : reason;
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
 * A typed amount in major units ("12.50", "12,50", "1 234,50", "$12") as minor units, or null when it is not
 * one amount (lib/dashboard/amount-input.ts says why). Refund and payment amounts are integers in cents; this
 * is the only place people's decimals become cents.
 */
export function parseMajorAmount(input: string): number | null {
  const read = readMajorAmount(input);
  return 'amount' in read ? read.amount : null;
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
