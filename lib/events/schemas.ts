import { z } from 'zod';
import { listQuerySchema } from '@/lib/api/parse';
import { EVENT_TYPES } from './types';

export const listEventsQuery = listQuerySchema({
  type: z.enum(EVENT_TYPES).optional(),
});

export type ListEventsQuery = z.output<typeof listEventsQuery>;
