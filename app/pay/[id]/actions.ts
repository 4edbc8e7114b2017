'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { redirect } from 'next/navigation';
import type { PayLinkState } from '@/components/payment-links/pay-button';
import { merchantContexts } from '@/lib/core/context';
import { db } from '@/lib/db';
import { startPaymentLinkCheckout, type PaymentLinkCheckout } from '@/lib/payment-links/checkout';
import { clientAddressOf } from '@/lib/server/client-address';
import { parseActionArguments } from '@/lib/server-actions/arguments';
import { minutesToWait } from '@/lib/throttles/wording';

type Refusal = Extract<PaymentLinkCheckout, { ok: false }>;

function refusalMessage(refusal: Refusal): string {
  switch (refusal.reason) {
    case 'not_found':
      return 'This payment link does not exist.';
    case 'inactive':
      return 'This payment link is no longer available, so nothing can be paid with it.';
    case 'unavailable':
      return 'This payment link cannot take payments right now. Nothing was charged.';
    case 'quantity_invalid':
      return 'Choose a quantity this link offers. Nothing was charged.';
    case 'price_changed':
      return 'The price changed while this page was open, and the page now shows the new one. Nothing was charged: check it, then pay again.';
    case 'throttled':
      return `Too many checkouts were started from your network. Nothing was charged; try again in ${minutesToWait(refusal.retryAfterSeconds)}.`;
  }
}

/** "Pay" on /pay/{id}: a fresh order and checkout session, then the hosted checkout page. */
export async function payThroughLink(
  ...args: [linkId: string, state: PayLinkState, form: FormData]
): Promise<PayLinkState> {
  // the page binds the link's id; the form (useActionState) adds its state and its (empty) FormData
  const parsed = parseActionArguments(args, z.string(), z.unknown(), z.instanceof(FormData));
  if (!parsed) return { message: refusalMessage({ ok: false, reason: 'not_found' }) };
  const [linkId, , form] = parsed;
  // a link with a fixed quantity sends none: one
  const quantity = Number(form.get('quantity') ?? 1);
  const shown = form.get('price');
  const shownPrice = typeof shown === 'string' && /^\d{1,9}$/.test(shown) ? Number(shown) : undefined;
  const outcome = await startPaymentLinkCheckout(
    merchantContexts(await db()),
    linkId,
    clientAddressOf(await headers()),
    {
      quantity,
      shownPrice,
    },
  );
  if (!outcome.ok) {
    // the form is drawn again with the link's price and quantities as they are now, beside the message
    if (outcome.reason === 'price_changed' || outcome.reason === 'quantity_invalid') revalidatePath(`/pay/${linkId}`);
    return { message: refusalMessage(outcome) };
  }
  // our own relative path: the customer stays on the origin they opened the link on
  redirect(`/checkout/${outcome.session.id}`);
}
