// /docs#webhooks: every kind of event the service emits.
export const EVENT_TYPES = [
  'checkout_session.completed',
  'checkout_session.expired',
  'payment.succeeded',
  'payment.failed',
  'refund_request.created',
  'refund_request.approved',
  'refund_request.declined',
  'refund_request.canceled',
  'refund.completed',
  'refund.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
