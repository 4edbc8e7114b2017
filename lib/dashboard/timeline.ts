import type { CheckoutSession, Payment, RefundRequest } from '@/lib/generated/prisma/client';
import { describeMethodDetails, formatMoney, type Tone } from './format';

// What happened to one payment, in order: its session's creation, the payment, each refund's steps, and
// the events that told the merchant's server about them. Other attempts on the same session have their
// own pages and timelines; the payment page links to them instead of telling their story here.

export type TimelineEntry = {
  at: Date;
  kind: 'session' | 'payment' | 'refund' | 'event';
  title: string;
  detail?: string;
  tone: Tone;
  href?: string;
};

const FAILURE_WORDS: Record<string, string> = {
  card_declined: 'Card declined',
  insufficient_funds: 'Insufficient funds',
  interac_declined: 'Declined by the customer',
};

export function describeFailure(code: string | null): string {
  return code ? (FAILURE_WORDS[code] ?? code) : 'Failed';
}

export function buildTimeline(input: {
  payment: Payment;
  session: CheckoutSession;
  refunds: RefundRequest[];
  events: { id: string; type: string; createdAt: Date }[];
}): TimelineEntry[] {
  const { payment, session } = input;
  const entries: TimelineEntry[] = [
    {
      at: session.createdAt,
      kind: 'session',
      title: 'Checkout session created',
      detail: `Order ${session.orderReference} · ${formatMoney(session.amount, session.currency)}`,
      tone: 'neutral',
      href: `/dashboard/checkout-sessions/${session.id}`,
    },
  ];
  entries.push({
    at: payment.createdAt,
    kind: 'payment',
    title: payment.status === 'succeeded' ? 'Payment succeeded' : `Payment attempt failed: ${describeFailure(payment.failureCode)}`,
    detail: describeMethodDetails(payment.paymentMethod, payment.methodDetails),
    tone: payment.status === 'succeeded' ? 'success' : 'danger',
  });
  for (const refund of input.refunds) entries.push(...refundSteps(refund));
  for (const event of input.events) {
    entries.push({ at: event.createdAt, kind: 'event', title: event.type, detail: event.id, tone: 'neutral', href: `/dashboard/developers/events/${event.id}` });
  }
  const order = { session: 0, payment: 1, refund: 2, event: 3 };
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || order[a.entry.kind] - order[b.entry.kind] || a.index - b.index)
    .map(({ entry }) => entry);
}

function refundSteps(refund: RefundRequest): TimelineEntry[] {
  const amount = formatMoney(refund.amount, refund.currency);
  const steps: TimelineEntry[] = [
    { at: refund.createdAt, kind: 'refund', title: `Refund of ${amount} requested`, detail: refund.reason ?? undefined, tone: 'info' },
  ];
  if (refund.processingAt) {
    steps.push({ at: refund.processingAt, kind: 'refund', title: `Refund of ${amount} authorized and sent to the provider`, tone: 'info' });
  }
  const ending: Partial<Record<RefundRequest['status'], Pick<TimelineEntry, 'title' | 'tone' | 'detail'>>> = {
    completed: { title: `Refund of ${amount} completed`, tone: 'success' },
    failed: { title: `Refund of ${amount} failed`, tone: 'danger', detail: refund.failureReason ?? undefined },
    declined: { title: `Refund of ${amount} declined`, tone: 'danger' },
    canceled: { title: `Refund of ${amount} canceled`, tone: 'neutral' },
  };
  const end = ending[refund.status];
  if (end) steps.push({ at: refund.updatedAt, kind: 'refund', ...end });
  return steps;
}
