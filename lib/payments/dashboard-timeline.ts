import type { CheckoutSession, Payment, PaymentStatus, RefundRequest } from '@/lib/generated/prisma/client';
import { describeMethodDetails, formatMoney, type Tone } from '@/lib/dashboard/format';

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

/** How each status of a payment reads on its timeline; a failure says why (describeFailure). */
const PAYMENT_TITLES: Partial<Record<PaymentStatus, string>> = {
  succeeded: 'Payment succeeded',
  requires_capture: 'Payment authorized, not yet captured',
  canceled: 'Payment authorized, then canceled',
};
const PAYMENT_TONES: Record<PaymentStatus, Tone> = {
  succeeded: 'success',
  requires_capture: 'info',
  canceled: 'neutral',
  failed: 'danger',
};

export function describeFailure(code: string | null): string {
  return code ? (FAILURE_WORDS[code] ?? code) : 'Failed';
}

export function buildTimeline(input: {
  payment: Payment;
  session: CheckoutSession;
  refunds: RefundRequest[];
  /** objectId: the id of the object the event carries (data.object.id) */
  events: { id: string; type: string; createdAt: Date; objectId?: string }[];
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
  const authorizationEnd = payment.captureMethod === 'manual' ? authorizationEndOf(payment, input.events) : undefined;
  entries.push({
    at: payment.createdAt,
    kind: 'payment',
    title: authorizationEnd
      ? 'Payment authorized'
      : (PAYMENT_TITLES[payment.status] ?? `Payment attempt failed: ${describeFailure(payment.failureCode)}`),
    detail: describeMethodDetails(payment.paymentMethod, payment.methodDetails),
    tone: authorizationEnd ? 'info' : PAYMENT_TONES[payment.status],
  });
  if (authorizationEnd) entries.push(authorizationEnd);
  for (const refund of input.refunds) entries.push(...refundSteps(refund));
  // An event is written in the transaction of the change it reports, and stamped by the database at that
  // transaction's start, a few milliseconds before the change's own time: placed by its stamp alone it
  // would come just before what it reports. It is placed after that change instead (shown with its stamp).
  const placedAt = new Map<TimelineEntry, number>();
  for (const event of input.events) {
    const entry: TimelineEntry = {
      at: event.createdAt,
      kind: 'event',
      title: event.type,
      detail: event.id,
      tone: 'neutral',
      href: `/dashboard/developers/events/${event.id}`,
    };
    const reported = reportedAt(event, input);
    placedAt.set(entry, Math.max(event.createdAt.getTime(), reported?.getTime() ?? 0));
    entries.push(entry);
  }
  const order = { session: 0, payment: 1, refund: 2, event: 3 };
  const timeOf = (entry: TimelineEntry) => placedAt.get(entry) ?? entry.at.getTime();
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => timeOf(a.entry) - timeOf(b.entry) || order[a.entry.kind] - order[b.entry.kind] || a.index - b.index)
    .map(({ entry }) => entry);
}

/** When the change an event reports happened, as its entry in the timeline says; undefined when unknown. */
function reportedAt(
  event: { type: string; objectId?: string },
  input: { payment: Payment; refunds: RefundRequest[] },
): Date | undefined {
  if (event.type === 'payment.canceled') return input.payment.canceledAt ?? input.payment.createdAt;
  if (event.type.startsWith('payment.') || event.type === 'checkout_session.completed') return input.payment.createdAt;
  const refund = input.refunds.find((each) => each.id === event.objectId);
  if (!refund) return undefined;
  if (event.type === 'refund_request.created') return refund.createdAt;
  // the refund's updated_at has moved on since, when the provider finished it
  if (event.type === 'refund_request.approved') return refund.processingAt ?? refund.updatedAt;
  return refund.updatedAt;
}

/**
 * How an authorization ended, at its own time: captured (when its payment.succeeded event was written, the
 * row keeping no time of its own for it) or canceled. Undefined while it stands, or when that time is unknown.
 */
function authorizationEndOf(
  payment: Payment,
  events: { type: string; createdAt: Date; objectId?: string }[],
): TimelineEntry | undefined {
  const whole = formatMoney(payment.amount, payment.currency);
  if (payment.status === 'canceled' && payment.canceledAt)
    return {
      at: payment.canceledAt,
      kind: 'payment',
      title:
        payment.cancellationReason === 'expired'
          ? `Authorization expired: the hold of ${whole} was released`
          : `Authorization canceled: the hold of ${whole} was released`,
      tone: 'neutral',
    };
  const captured = events.find((event) => event.type === 'payment.succeeded' && event.objectId === payment.id);
  if (payment.status !== 'succeeded' || !captured) return undefined;
  const rest = payment.amount - payment.amountCaptured;
  return {
    at: captured.createdAt,
    kind: 'payment',
    title: `Captured ${formatMoney(payment.amountCaptured, payment.currency)}${rest > 0 ? ` of ${whole}; ${formatMoney(rest, payment.currency)} released` : ''}`,
    tone: 'success',
  };
}

function refundSteps(refund: RefundRequest): TimelineEntry[] {
  const amount = formatMoney(refund.amount, refund.currency);
  const steps: TimelineEntry[] = [
    {
      at: refund.createdAt,
      kind: 'refund',
      title: `Refund of ${amount} requested`,
      detail: refund.reason ?? undefined,
      tone: 'info',
    },
  ];
  if (refund.processingAt) {
    steps.push({
      at: refund.processingAt,
      kind: 'refund',
      title: `Refund of ${amount} authorized and sent to the provider`,
      tone: 'info',
    });
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
