import type { z } from 'zod';
import { EVENT_OBJECTS } from './objects';
import { serializeEvent } from './serialize';
import type { EventType } from './types';
import type { Event } from '@/lib/generated/prisma/client';

// An event's data is stored as jsonb, which keeps its keys sorted by length, so `object` came out in the middle
// of a payment's keys. The dashboard shows a payload with its keys in the order the API writes them: the order
// of the documented object's schema (lib/events/objects.ts), which the serializers follow.

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
};

const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` with every object's keys in the order `schema` lists them; keys it does not name keep theirs, last. */
export function inSchemaOrder(schema: z.ZodType, value: unknown): unknown {
  const def = defOf(schema);
  if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
    return inSchemaOrder(def.innerType, value);
  if (def.type === 'array' && def.element && Array.isArray(value))
    return value.map((item) => inSchemaOrder(def.element!, item));
  if (def.type === 'union' && def.options && isPlainObject(value)) {
    // the option whose fields name every key of the value (payment_method_details: card, usdc or interac)
    const fits = def.options.find((option) => {
      const shape = defOf(option).shape;
      return shape && Object.keys(value).every((key) => key in shape);
    });
    return fits ? inSchemaOrder(fits, value) : value;
  }
  if (def.type !== 'object' || !def.shape || !isPlainObject(value)) return value;
  const ordered: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(def.shape)) {
    if (key in value) ordered[key] = inSchemaOrder(field, value[key]);
  }
  for (const [key, item] of Object.entries(value)) if (!(key in ordered)) ordered[key] = item;
  return ordered;
}

/** The event as GET /v1/events/{id} describes it, keys in the API's order, for the event's page. */
export function eventPayloadInApiOrder(event: Pick<Event, 'id' | 'type' | 'data' | 'createdAt'>): unknown {
  const serialized = serializeEvent(event);
  const schema = EVENT_OBJECTS[event.type as EventType];
  return schema ? inSchemaOrder(schema, serialized) : serialized;
}
