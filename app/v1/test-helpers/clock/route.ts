import { apiRoute, routes } from '@/lib/http/route';
import { serializeTestClock } from '@/lib/test-clocks/objects';
import { getTestClockOperation } from '@/lib/test-clocks/operations';
import { getTestClock } from '@/lib/test-clocks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getTestClockOperation, async ({ context }) => serializeTestClock(await getTestClock(context))),
});
