import type { RequestContext } from '@/lib/core/context';
import { approveRefundRequest, cancelRefundRequest, declineRefundRequest } from './service';
import { formatMoney } from '@/lib/dashboard/format';
import { type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// Approve / Decline (manual refund policy) and Cancel, from the dashboard. The services check the policy,
// and the state in their UPDATE, so two people clicking at once move a refund once; the second is told why not.

export type RefundChange = 'approve' | 'decline' | 'cancel';

const DONE: Record<RefundChange, string> = { approve: 'approved', decline: 'declined', cancel: 'canceled' };
const RUN = { approve: approveRefundRequest, decline: declineRefundRequest, cancel: cancelRefundRequest };

export async function changeRefund(
  context: RequestContext,
  refundId: string,
  change: RefundChange,
): Promise<FormState> {
  try {
    // at the merchant's time (its test clock), as over its API key: an approved refund starts processing then
    const refund = await RUN[change](context, refundId);
    return { status: 'ok', message: `Refund of ${formatMoney(refund.amount, refund.currency)} ${DONE[change]}.` };
  } catch (error) {
    // a refusal is worded by the service, from the refund as it is now
    return toFormState(error, {});
  }
}
