import { z } from 'zod';
import { timestamp } from '@/lib/openapi/object-fields';
import type { TestClock } from './service';

// The test_clock object (/docs#objects, lib/test-clocks/service.ts) and its serializer.

export const testClockObject = z
  .strictObject({
    object: z.literal('test_clock'),
    now: timestamp("The connection's time: the wall clock plus offset_seconds"),
    offset_seconds: z.number().int().min(0).describe('How far the clock has been advanced, in seconds'),
  })
  .describe("The connection's test clock: its time governs every timestamp, expiry, refund and webhook retry of it.");

export function serializeTestClock(clock: TestClock): z.infer<typeof testClockObject> {
  return { object: 'test_clock', now: clock.now.toISOString(), offset_seconds: clock.offsetSeconds };
}
