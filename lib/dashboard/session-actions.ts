import { expireCheckoutSession } from '@/lib/checkout-sessions/service';
import type { Db } from '@/lib/db';
import { onMerchantClock } from '@/lib/test-clocks/service';
import { failed, serviceRefusal, type FormState } from './form-state';

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
    const refusal = serviceRefusal(error);
    if (refusal.code === 'resource_missing') return failed('This checkout session was not found.');
    return failed(refusal.message);
  }
}
