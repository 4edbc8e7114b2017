import { z } from 'zod';
import { listQuerySchema } from '@/lib/core/parse';
import { EVENT_TYPES, type EventType } from './types';

export const listEventsQuery = listQuerySchema({
  type: z.enum(EVENT_TYPES).optional(),
});

export type ListEventsQuery = z.output<typeof listEventsQuery>;

/** `types=a,b`: the event types a stream carries, comma-separated; all of them when omitted. */
const TYPE_PATTERN = `\\s*(?:${EVENT_TYPES.map((type) => type.replaceAll('.', '\\.')).join('|')})\\s*`;

export const streamEventsQuery = z.strictObject({
  types: z
    .string()
    .max(1000)
    .meta({ pattern: `^${TYPE_PATTERN}(?:,${TYPE_PATTERN})*$` })
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const types = value.split(',').map((type) => type.trim());
      const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
      if (unknown === undefined) return [...new Set(types)] as EventType[];
      context.addIssue({
        code: 'custom',
        message: `'${unknown}' is not an event type; use a comma-separated list of ${EVENT_TYPES.join(', ')}`,
      });
      return z.NEVER;
    }),
});

export type StreamEventsQuery = z.output<typeof streamEventsQuery>;
