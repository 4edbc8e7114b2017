import { expireCheckoutSession } from './service';
import type { RequestContext } from '@/lib/core/context';
import { type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

/** Expire an open session now, as POST /v1/checkout-sessions/{id}/expire does. */
export async function expireSessionFromDashboard(context: RequestContext, sessionId: string): Promise<FormState> {
  try {
    await expireCheckoutSession(context, sessionId);
    return { status: 'ok', message: 'Session expired. Its checkout page no longer takes payment.' };
  } catch (error) {
    // a refusal is worded by the service, from the session as it is now
    return toFormState(error, {});
  }
}
