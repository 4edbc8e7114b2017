import type { Event } from '@/lib/generated/prisma/client';

/** /docs#webhooks. This is also, byte for byte, the body of every webhook delivery of the event. */
export function serializeEvent(event: Pick<Event, 'id' | 'type' | 'data' | 'createdAt'>) {
  return {
    id: event.id,
    object: 'event' as const,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    data: event.data as { object: unknown },
  };
}

export type EventObject = ReturnType<typeof serializeEvent>;
