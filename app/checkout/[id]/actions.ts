'use server';

import type { PayOutcome } from '@/components/checkout/payment-types';
import { payFromHostedForm } from './pay-from-form';

/** The hosted payment form's submit: the page binds the session id, the browser sends the form. */
export async function payCheckout(sessionId: unknown, form: unknown): Promise<PayOutcome> {
  return payFromHostedForm(sessionId, form);
}
