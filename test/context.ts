import { connectionContext, type RequestContext } from '@/lib/core/context';
import type { Db } from '@/lib/db';
import { getTestClock } from '@/lib/test-clocks/service';

// The context a test calls a service with, as apiRoute, the dashboard and the worker build theirs (lib/core/context.ts).

/** `merchantId`'s context at the wall clock (its test clock at zero; advanceClock's shift included). */
export function contextOf(database: Db, merchantId: string): RequestContext {
  return connectionContext(database, merchantId, 0);
}

/** `merchantId`'s context at its own test clock, as read now. */
export async function contextOnClock(database: Db, merchantId: string): Promise<RequestContext> {
  return connectionContext(database, merchantId, (await getTestClock(contextOf(database, merchantId))).offsetSeconds);
}
