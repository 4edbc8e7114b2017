import { z } from 'zod';
import type { RequestContext } from '@/lib/core/context';
import { USDC_NOTE_REQUIRED } from './messages';
import { createRefundRequestInput } from './schemas';
import { createRefundRequest } from './service';
import { readMajorAmount } from '@/lib/dashboard/amount-input';
import { formatMoney } from '@/lib/dashboard/format';
import { AMOUNT_FORMAT, REFUND_AMOUNT_NOT_POSITIVE } from './dashboard-amount';
import { refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// The dashboard's Refund form holds the API's rules (/docs#objects) by going through the same schema and
// service as POST /v1/refund-requests; this file only turns a person's typing into that input and the
// service's refusals (worded by the service) beside the right field.

export type RefundField = 'amount' | 'reason' | 'note';
export type RefundFormInput = { paymentId: string; amount: string; reason: string; note: string };
/** The form's answer; a request made names its refund, so the page can say how far it has got. */
export type RefundFormState = FormState<RefundField> | { status: 'ok'; message: string; refundId: string };

export { USDC_NOTE_REQUIRED };

const PARAM_FIELDS: Partial<Record<string, RefundField>> = {
  amount: 'amount',
  reason: 'reason',
  crypto_refund_destination_note: 'note',
};

export async function refundFromDashboard(context: RequestContext, form: RefundFormInput): Promise<RefundFormState> {
  const values = { amount: form.amount, reason: form.reason, note: form.note };
  const read = readMajorAmount(form.amount);
  if ('error' in read) return refused({ amount: read.error }, values);
  const { amount } = read;
  if (amount < 1) return refused({ amount: REFUND_AMOUNT_NOT_POSITIVE }, values);

  const parsed = createRefundRequestInput.safeParse({
    payment_id: form.paymentId,
    amount,
    ...(form.reason.trim() ? { reason: form.reason.trim() } : {}),
    ...(form.note.trim() ? { crypto_refund_destination_note: form.note.trim() } : {}),
  });
  if (!parsed.success) return refused(fieldErrorsOf(parsed.error), values);

  try {
    const refund = await createRefundRequest(context, parsed.data);
    return {
      status: 'ok',
      message: `Refund of ${formatMoney(refund.amount, refund.currency)} requested.`,
      refundId: refund.id,
    };
  } catch (error) {
    return toFormState(error, PARAM_FIELDS, values);
  }
}

function fieldErrorsOf(error: z.ZodError): Partial<Record<RefundField, string>> {
  const errors: Partial<Record<RefundField, string>> = {};
  for (const issue of error.issues) {
    const path = issue.path[0];
    if (path === 'reason') errors.reason ??= 'Keep the reason under 500 characters.';
    else if (path === 'crypto_refund_destination_note') errors.note ??= 'Keep the note under 1,000 characters.';
    else errors.amount ??= AMOUNT_FORMAT;
  }
  return errors;
}
