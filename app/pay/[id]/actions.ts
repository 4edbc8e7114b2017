'use server';

import { redirect } from 'next/navigation';
import type { PayLinkState } from '@/components/payment-links/pay-button';
import { db } from '@/lib/db';
import { startPaymentLinkCheckout } from '@/lib/payment-links/checkout';

const REFUSALS = {
  not_found: 'This payment link does not exist.',
  inactive: 'This payment link is no longer available, so nothing can be paid with it.',
  unavailable: 'This payment link cannot take payments right now. Nothing was charged.',
} as const;

/** "Pay" on /pay/{id}: a fresh order and checkout session, then the hosted checkout page. */
export async function payThroughLink(linkId: string, _state: PayLinkState): Promise<PayLinkState> {
  const outcome = await startPaymentLinkCheckout(await db(), linkId);
  if (!outcome.ok) return { message: REFUSALS[outcome.reason] };
  // our own relative path: the customer stays on the origin they opened the link on
  redirect(`/checkout/${outcome.session.id}`);
}
