import { expireCheckoutSession } from '@/lib/checkout-sessions/service';
import type { Db } from '@/lib/db';
import { onMerchantClock } from '@/lib/test-clocks/service';
import { toFormState, type FormState } from './form-state';

/** Expire an open session now, as POST /v1/checkout-sessions/{id}/expire does. */
export async function expireSessionFromDashboard(
  database: Db,
  merchantId: string,
  sessionId: string,
): Promise<FormState> {
  try {
    // at the merchant's time, as the API would (its test clock)
    await onMerchantClock(database, merchantId, () => expireCheckoutSession(database, merchantId, sessionId));
    return { status: 'ok', message: 'Session expired. Its checkout page no longer takes payment.' };
  } catch (error) {
    // a refusal is worded by the service, from the session as it is now
    return toFormState(error, {});
  }
}
