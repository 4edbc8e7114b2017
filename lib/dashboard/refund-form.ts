import { z } from 'zod';
import type { Db } from '@/lib/db';
import { isId } from '@/lib/ids';
import { findPayment } from '@/lib/payments/repository';
import { amountRefundable } from '@/lib/payments/serialize';
import { createRefundRequestInput } from '@/lib/refunds/schemas';
import { createRefundRequest } from '@/lib/refunds/service';
import { formatMoney, parseMajorAmount } from './format';
import { AMOUNT_FORMAT, amountLeftMessage, REFUND_AMOUNT_NOT_POSITIVE } from './refund-amount';
import { failed, refused, serviceRefusal, type FormState } from './form-state';

// The dashboard's Refund form holds the API's rules (/docs#objects) by going through the same schema and
// service as POST /v1/refund-requests; this file only turns a person's typing into that input and the
// service's refusals back into words beside the right field.

export type RefundField = 'amount' | 'reason' | 'note';
export type RefundFormInput = { paymentId: string; amount: string; reason: string; note: string };
/** The form's answer; a request made names its refund, so the page can say how far it has got. */
export type RefundFormState = FormState<RefundField> | { status: 'ok'; message: string; refundId: string };

export const USDC_NOTE_REQUIRED =
  'USDC payments are never refunded to the address they were sent from. Describe how the customer’s own destination address was verified.';

export async function refundFromDashboard(
  database: Db,
  merchantId: string,
  form: RefundFormInput,
): Promise<RefundFormState> {
  const values = { amount: form.amount, reason: form.reason, note: form.note };
  const amount = parseMajorAmount(form.amount);
  if (amount === null) return refused({ amount: AMOUNT_FORMAT }, values);
  if (amount < 1) return refused({ amount: REFUND_AMOUNT_NOT_POSITIVE }, values);

  const parsed = createRefundRequestInput.safeParse({
    payment_id: form.paymentId,
    amount,
    ...(form.reason.trim() ? { reason: form.reason.trim() } : {}),
    ...(form.note.trim() ? { crypto_refund_destination_note: form.note.trim() } : {}),
  });
  if (!parsed.success) return refused(fieldErrorsOf(parsed.error), values);

  try {
    const refund = await createRefundRequest(database, merchantId, parsed.data);
    return {
      status: 'ok',
      message: `Refund of ${formatMoney(refund.amount, refund.currency)} requested.`,
      refundId: refund.id,
    };
  } catch (error) {
    const refusal = serviceRefusal(error);
    switch (refusal.code) {
      case 'refund_exceeds_available':
        return refused({ amount: await availableMessage(database, merchantId, form.paymentId) }, values);
      case 'parameter_missing':
        return refused({ note: USDC_NOTE_REQUIRED }, values);
      case 'parameter_invalid':
        return refused(
          refusal.param === 'crypto_refund_destination_note'
            ? { note: 'Only USDC payments take a destination note.' }
            : { amount: refusal.message },
          values,
        );
      case 'resource_missing':
        return failed('This payment was not found.', values);
      default:
        return failed(refusal.message, values);
    }
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

async function availableMessage(database: Db, merchantId: string, paymentId: string): Promise<string> {
  const payment = isId('payment', paymentId) ? await findPayment(database, merchantId, paymentId) : null;
  if (!payment) return 'This payment was not found.';
  const left = amountRefundable(payment);
  return amountLeftMessage(left, payment.currency);
}
