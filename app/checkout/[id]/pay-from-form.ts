import { z } from 'zod';
import type { FormFieldErrors, PayFormInput, PayOutcome } from '@/components/checkout/payment-types';
import { ApiError } from '@/lib/core/errors';
import { toFormState } from '@/lib/dashboard/to-form-state';
import { merchantContexts } from '@/lib/core/context';
import { db } from '@/lib/db';
import { normalizeCardNumber } from '@/lib/payments/cards';
import {
  cardFormErrors,
  customerEmailError,
  hasErrors,
  interacFormErrors,
  parseExpiry,
} from '@/lib/payments/hosted-form';
import { env } from '@/lib/env';
import { DeclineLimitReached, payCheckoutSession } from '@/lib/payments/pay';
import { parsePayInput } from '@/lib/payments/schemas';
import { customerEmailInput } from '@/lib/checkout-sessions/schemas';
import { returnUrlWithSessionId } from './return-url';

// The hosted page's side of paying: check the form again on the server, then hand it to the same
// payCheckoutSession the test-helper endpoint uses. Neither the card number nor any other field is logged
// or sent back; pay.ts keeps only brand, last4 and expiry.

const email = z.string().max(300);
const payFormInput = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('card'),
    email,
    card: z.strictObject({
      number: z.string().max(32),
      expiry: z.string().max(16),
      cvc: z.string().max(8),
      name: z.string().max(300),
    }),
  }),
  z.strictObject({ method: z.literal('usdc'), email }),
  z.strictObject({
    method: z.literal('interac'),
    email,
    outcome: z.enum(['approve', 'decline']),
    interac: z.strictObject({ bank: z.string().max(100) }),
  }),
]);

export const SOMETHING_WENT_WRONG = 'Something went wrong on our side and nothing was paid. Please try again.';
const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'Your card was declined. Nothing was paid — try another card.',
  insufficient_funds: 'Your card has insufficient funds. Nothing was paid — try another card.',
  interac_declined:
    'The Interac e-Transfer was declined, so nothing was paid. You can try again or choose another way to pay.',
};

/** A decline in a few words, when it was the last the checkout takes and there is nothing more to try. */
const LAST_DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  interac_declined: 'The Interac e-Transfer was declined.',
};

/** The form field of each param the service may refuse when the browser let it through. */
const PARAM_FIELDS: Record<string, keyof FormFieldErrors> = {
  card_number: 'number',
  exp_month: 'expiry',
  exp_year: 'expiry',
  cvc: 'cvc',
  name: 'name',
  email: 'email',
  bank: 'bank',
};

const EMAIL_INVALID = 'Enter a valid e-mail address.';

/** Refusals that mean the session can no longer be paid: the page reloads to show why. */
const CLOSED = new Set(['checkout_session_not_open', 'order_already_paid', 'resource_missing']);

export async function payFromHostedForm(sessionId: string, raw: unknown): Promise<PayOutcome> {
  const form = payFormInput.safeParse(raw);
  // the page always sends this shape; a hand-made request learns nothing more
  if (!form.success) return { kind: 'failed', message: SOMETHING_WENT_WRONG };

  const emailError = customerEmailError(form.data.email, form.data.method);
  if (emailError) return { kind: 'invalid', errors: { email: emailError } };
  // the browser's clock checks the expiry it typed; the service checks it again at the merchant's time
  const checked = toPayInput(form.data, new Date());
  if ('errors' in checked) return { kind: 'invalid', errors: checked.errors };
  const customerEmail = form.data.email.trim() || undefined;
  // the browser's check is looser than the API's rule for customer_email, which the payment shows
  if (customerEmail && !customerEmailInput.safeParse(customerEmail).success)
    return { kind: 'invalid', errors: { email: EMAIL_INVALID } };

  try {
    const declineLimit = env().CHECKOUT_DECLINES_PER_SESSION;
    const { payment, session } = await payCheckoutSession(
      merchantContexts(await db()),
      sessionId,
      parsePayInput(checked.body),
      {
        declineLimit,
        customerEmail,
      },
    );
    if (payment.status === 'failed') {
      // the session as read before this decline: with it, the limit is reached and the form must say so now
      if (session.declinedPayments + 1 >= declineLimit) {
        return { kind: 'declines_exhausted', message: LAST_DECLINE_MESSAGES[payment.failureCode ?? ''] ?? '' };
      }
      return { kind: 'failed', message: DECLINE_MESSAGES[payment.failureCode ?? ''] ?? SOMETHING_WENT_WRONG };
    }
    return {
      kind: 'paid',
      returnUrl: returnUrlWithSessionId(session.returnUrl, session.id),
      receiptEmail: payment.customerEmail,
    };
  } catch (error) {
    return outcomeOfError(error, sessionId, form.data.method);
  }
}

/** The body payCheckoutSession takes (the test helper's shape), or the fields that are wrong. */
function toPayInput(form: PayFormInput, at: Date): { body: Record<string, unknown> } | { errors: FormFieldErrors } {
  if (form.method === 'card') {
    const errors = cardFormErrors(form.card, at);
    if (hasErrors(errors)) return { errors };
    const expiry = parseExpiry(form.card.expiry)!;
    return {
      body: {
        payment_method: 'card',
        card_number: normalizeCardNumber(form.card.number),
        exp_month: expiry.month,
        exp_year: expiry.year,
        cvc: form.card.cvc.trim(),
        name: form.card.name.trim(),
      },
    };
  }
  if (form.method === 'interac') {
    const errors = interacFormErrors(form.interac);
    if (hasErrors(errors)) return { errors };
    return {
      body: {
        payment_method: 'interac',
        outcome: form.outcome,
        email: form.email.trim(),
        bank: form.interac.bank,
      },
    };
  }
  return { body: { payment_method: 'usdc' } };
}

/** A refusal in the service's words (toFormState), beside its field or above the form; closed sessions reload. */
function outcomeOfError(error: unknown, sessionId: string, method: PayFormInput['method']): PayOutcome {
  if (error instanceof DeclineLimitReached) return { kind: 'declines_exhausted', message: '' };
  if (error instanceof ApiError && CLOSED.has(error.code)) return { kind: 'closed' };
  // the error's own message only: the form's fields are never written to the log
  const state = toFormState(error, PARAM_FIELDS, undefined, {
    unexpected: SOMETHING_WENT_WRONG,
    logged: { checkout_session_id: sessionId, payment_method: method },
  });
  if (state.status === 'error' && state.fieldErrors) return { kind: 'invalid', errors: state.fieldErrors };
  return { kind: 'failed', message: (state.status === 'error' && state.message) || SOMETHING_WENT_WRONG };
}
