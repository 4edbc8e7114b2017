import type { RequestContext } from '@/lib/core/context';
import { countAndFindEvents, findEvent } from './repository';
import { EVENT_TYPES } from './types';
import type { Event } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { findEventDeliveries } from '@/lib/webhooks/repository';
import { formatMoney } from '@/lib/dashboard/format';
import { PAGE_SIZE } from '@/lib/dashboard/list-params';

// Events as the dashboard lists them: a sentence per event and a link to what it is about.

export { EVENT_TYPES };

type EventObject = { id?: string; amount?: number; currency?: string; order_reference?: string; payment_id?: string };

function objectOf(event: Pick<Event, 'data'>): EventObject {
  const data = event.data as { object?: EventObject } | null;
  return data?.object ?? {};
}

/** "Payment of US$37.50 succeeded" */
export function describeEvent(event: Pick<Event, 'type' | 'data'>): string {
  const object = objectOf(event);
  const money = typeof object.amount === 'number' && object.currency ? formatMoney(object.amount, object.currency) : '';
  const order = object.order_reference ? ` for order ${object.order_reference}` : '';
  switch (event.type) {
    case 'payment.succeeded':
      return `Payment of ${money} succeeded`;
    case 'payment.failed':
      return `Payment of ${money} failed`;
    case 'checkout_session.completed':
      return `Checkout session${order} completed`;
    case 'checkout_session.expired':
      return `Checkout session${order} expired`;
    case 'refund_request.created':
      return `Refund of ${money} requested`;
    case 'refund_request.approved':
      return `Refund of ${money} approved`;
    case 'refund_request.declined':
      return `Refund of ${money} declined`;
    case 'refund_request.canceled':
      return `Refund of ${money} canceled`;
    case 'refund.completed':
      return `Refund of ${money} completed`;
    case 'refund.failed':
      return `Refund of ${money} failed`;
    default:
      return event.type;
  }
}

/** The dashboard page of the object an event is about. */
export function eventSubjectHref(event: Pick<Event, 'type' | 'data'>): string | null {
  const object = objectOf(event);
  if (!object.id) return null;
  if (event.type.startsWith('payment.')) return `/dashboard/payments/${object.id}`;
  if (event.type.startsWith('checkout_session.')) return `/dashboard/checkout-sessions/${object.id}`;
  if (event.type.startsWith('refund') && object.payment_id) return `/dashboard/payments/${object.payment_id}`;
  return null;
}

export async function searchEvents(context: RequestContext, filters: { type?: string; page: number }) {
  const { db: database, merchantId } = context;
  return countAndFindEvents(
    database,
    merchantId,
    { type: filters.type },
    { skip: (filters.page - 1) * PAGE_SIZE, take: PAGE_SIZE },
  );
}

/** An event with its deliveries to each endpoint and their attempts; null when not this merchant's. */
export async function getEventDetail(context: RequestContext, eventId: string) {
  const { db: database, merchantId } = context;
  if (!isId('event', eventId)) return null;
  const event = await findEvent(database, merchantId, eventId);
  if (!event) return null;
  const deliveries = await findEventDeliveries(database, merchantId, event.id);
  return { event, deliveries };
}
