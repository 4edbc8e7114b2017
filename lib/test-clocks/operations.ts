import { operation } from '@/lib/openapi/operation';
import { testClockObject } from './objects';
import { advanceTestClockInput } from './schemas';

// The connection's test clock (lib/test-clocks/service.ts), as app/v1/test-helpers/clock/** serve it and /docs describes it.

export const getTestClockOperation = operation({
  operationId: 'getTestClock',
  method: 'GET',
  path: '/v1/test-helpers/clock',
  tag: 'Test helpers',
  summary: 'Retrieve the test clock',
  description:
    "The connection's time: the wall clock plus how far its clock has been advanced. It is the time of every timestamp, session expiry, refund and webhook retry of the connection.",
  scope: 'payments:read',
  idempotency: 'none',
  success: { status: 200, schema: testClockObject },
  errors: [],
});

export const advanceTestClockOperation = operation({
  operationId: 'advanceTestClock',
  method: 'POST',
  path: '/v1/test-helpers/clock/advance',
  tag: 'Test helpers',
  summary: 'Advance the test clock',
  description:
    'Moves the connection’s time forward (never back): open sessions past their 30 minutes are expired, processing refunds finish and webhook retries come due as if that time had passed. Effects that need the worker happen within its next tick (about 2 seconds). A clock can be at most 50 years ahead in all; an advance past that is `400 parameter_invalid` and changes nothing.',
  scope: 'checkout_sessions:write',
  idempotency: 'optional',
  body: { schema: advanceTestClockInput, required: true, example: { seconds: 1860 } },
  success: { status: 200, schema: testClockObject },
  errors: [],
});
