import { z } from 'zod';

export const MAX_ADVANCE_SECONDS = 31_536_000;

export const advanceTestClockInput = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_ADVANCE_SECONDS)
    .describe('How far to move the clock forward: 1 second to 365 days'),
});
