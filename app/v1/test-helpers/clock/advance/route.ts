import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { serializeTestClock } from '@/lib/test-clocks/objects';
import { advanceTestClockOperation } from '@/lib/test-clocks/operations';
import { advanceTestClock } from '@/lib/test-clocks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(advanceTestClockOperation, async ({ context, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeTestClock);
    return answerOf(await advanceTestClock(context, body.seconds, { claimKey }), serializeTestClock);
  }),
});
