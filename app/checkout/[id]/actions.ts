'use server';

import { z } from 'zod';
import type { PayOutcome } from '@/components/checkout/payment-types';
import { parseActionArguments } from '@/lib/server-actions/arguments';
import { payFromHostedForm, SOMETHING_WENT_WRONG } from './pay-from-form';

/** The hosted payment form's submit: the page binds the session id, the browser sends the form. */
export async function payCheckout(...args: [sessionId: string, form: unknown]): Promise<PayOutcome> {
  const parsed = parseActionArguments(args, z.string(), z.unknown());
  if (!parsed) return { kind: 'failed', message: SOMETHING_WENT_WRONG };
  return payFromHostedForm(...parsed);
}
