import { z } from 'zod';

export const MAX_ADVANCE_SECONDS = 31_536_000;

/**
 * How far ahead a clock may be in all: 50 years, well inside the offset's column (an int, 68 years), so that
 * advances never overflow it.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 50 * MAX_ADVANCE_SECONDS;

export const advanceTestClockInput = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_ADVANCE_SECONDS)
    .describe('How far to move the clock forward: 1 second to 365 days'),
});
