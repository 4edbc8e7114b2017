import { answerClaimingInWrite, fingerprint, isReplay } from '@/lib/idempotency/service';
import type { RequestContext } from '@/lib/core/context';
import { cancelPayment, capturePayment } from './capture';
import { serializePayment } from './serialize';
import { readMajorAmount } from '@/lib/dashboard/amount-input';
import { CAPTURE_AMOUNT_NOT_POSITIVE } from './dashboard-capture-amount';
import { formatMoney } from '@/lib/dashboard/format';
import { failed, refused, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';

// Capture and Cancel authorization on a payment's page, through the same services as
// POST /v1/payments/{id}/capture and /cancel (lib/payments/capture.ts), at the merchant's time (its test clock)
// as over its API key. Each confirmed submission carries a key of its own, claimed with the change as an
// Idempotency-Key is: a submission sent twice (a retry after a dropped answer) is answered as the first was,
// rather than told that the payment it just captured cannot be captured.

export type CaptureField = 'amount';
export type CaptureFormInput = { paymentId: string; amount: string; submission: string };
export type CancelFormInput = { paymentId: string; submission: string };

/** What the browser makes per confirmed submission (a UUID, components/dashboard/capture-panel.tsx); anything else is not our form. */
const SUBMISSION_KEY = /^[0-9a-f-]{36}$/;
const UNREADABLE = 'This form could not be read. Reload the page and try again.';

/** The answer a capture made, or a replay of it: the payment as the API serializes it. */
type PaymentAnswer = Pick<ReturnType<typeof serializePayment>, 'amount' | 'amount_captured' | 'currency'>;

export async function captureFromDashboard(
  context: RequestContext,
  form: CaptureFormInput,
): Promise<FormState<CaptureField>> {
  const values = { amount: form.amount };
  if (!SUBMISSION_KEY.test(form.submission)) return failed(UNREADABLE, values);
  const read = readMajorAmount(form.amount);
  if ('error' in read) return refused({ amount: read.error }, values);
  if (read.amount < 1) return refused({ amount: CAPTURE_AMOUNT_NOT_POSITIVE }, values);
  const input = { amount_to_capture: read.amount };
  try {
    const answer = await answerClaimingInWrite(claimOf(context.merchantId, 'capture', form, input), (write) =>
      capturePayment(context, form.paymentId, input, { claimKey: write.answering(serializePayment) }),
    );
    return {
      status: 'ok',
      message: captured(isReplay(answer) ? (answer.body as PaymentAnswer) : serializePayment(answer)),
    };
  } catch (error) {
    // a refusal is worded by the service, from the payment as it is now
    return toFormState(error, { amount_to_capture: 'amount' }, values);
  }
}

export async function cancelFromDashboard(context: RequestContext, form: CancelFormInput): Promise<FormState<never>> {
  if (!SUBMISSION_KEY.test(form.submission)) return failed(UNREADABLE);
  try {
    const answer = await answerClaimingInWrite(claimOf(context.merchantId, 'cancel', form, {}), (write) =>
      cancelPayment(context, form.paymentId, { claimKey: write.answering(serializePayment) }),
    );
    const payment = isReplay(answer) ? (answer.body as PaymentAnswer) : serializePayment(answer);
    return {
      status: 'ok',
      message: `Authorization canceled: the hold of ${formatMoney(payment.amount, payment.currency)} is released, and the order can be paid again.`,
    };
  } catch (error) {
    return toFormState(error, {});
  }
}

/** The claim of a submission's key: its own namespace per payment and change, never an API request's. */
function claimOf(
  merchantId: string,
  change: 'capture' | 'cancel',
  form: { paymentId: string; submission: string },
  body: object,
) {
  return {
    merchantId,
    endpoint: `dashboard ${change} ${form.paymentId}`,
    key: form.submission,
    fingerprint: fingerprint(body),
    status: 200,
  };
}

function captured(payment: PaymentAnswer): string {
  const taken = formatMoney(payment.amount_captured, payment.currency);
  const rest = payment.amount - payment.amount_captured;
  return rest > 0
    ? `Captured ${taken}. The other ${formatMoney(rest, payment.currency)} of the authorization is released to the customer.`
    : `Captured ${taken}, the whole authorization.`;
}
