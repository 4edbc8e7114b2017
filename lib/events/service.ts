import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';

export const EVENT_TYPES = [
  'checkout_session.completed',
  'checkout_session.expired',
  'payment.succeeded',
  'payment.failed',
  'refund_request.created',
  'refund.completed',
  'refund.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Writes an event into the outbox. Call it with the transaction that makes the change it describes, so
 * the event exists exactly when the change does. `object` is the resource as the API shows it.
 */
export async function emitEvent(tx: Db, merchantId: string, type: EventType, object: unknown): Promise<string> {
  const id = newId('event');
  await tx.event.create({ data: { id, merchantId, type, data: { object: object as object } } });
  return id;
}
