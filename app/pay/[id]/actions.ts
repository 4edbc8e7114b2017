'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { redirect } from 'next/navigation';
import { ApiError } from '@/lib/core/errors';
import { merchantContexts } from '@/lib/core/context';
import { UNREADABLE_FORM, type FormState } from '@/lib/dashboard/form-state';
import { toFormState } from '@/lib/dashboard/to-form-state';
import { db } from '@/lib/db';
import { startPaymentLinkCheckout } from '@/lib/payment-links/checkout';
import { clientAddressOf } from '@/lib/server/client-address';
import { parseActionArguments } from '@/lib/server-actions/arguments';

/** "Pay" on /pay/{id}: a fresh order and checkout session, then the hosted checkout page. */
export async function payThroughLink(
  ...args: [linkId: string, state: FormState<never>, form: FormData]
): Promise<FormState<never>> {
  // the page binds the link's id; the form (useActionState) adds its state and its (empty) FormData
  const parsed = parseActionArguments(args, z.string(), z.unknown(), z.instanceof(FormData));
  if (!parsed) return UNREADABLE_FORM;
  const [linkId, , form] = parsed;
  // a link with a fixed quantity sends none: one
  const quantity = Number(form.get('quantity') ?? 1);
  const shown = form.get('price');
  const shownPrice = typeof shown === 'string' && /^\d{1,9}$/.test(shown) ? Number(shown) : undefined;
  let sessionId: string;
  try {
    const session = await startPaymentLinkCheckout(
      merchantContexts(await db()),
      linkId,
      clientAddressOf(await headers()),
      { quantity, shownPrice },
    );
    sessionId = session.id;
  } catch (error) {
    // the form is drawn again with the link's price and quantities as they are now, beside the message
    if (error instanceof ApiError && (error.code === 'price_changed' || error.param === 'quantity'))
      revalidatePath(`/pay/${linkId}`);
    return toFormState(error, {});
  }
  // our own relative path: the customer stays on the origin they opened the link on
  redirect(`/checkout/${sessionId}`);
}
