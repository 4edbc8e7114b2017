import { ApiError, errors, pageRefusals } from '@/lib/core/errors';
import { metadataOf } from '@/lib/core/metadata';
import { findCompleteSessionOfLink } from '@/lib/checkout-sessions/repository';
import { createCheckoutSession, methodServesCurrency } from '@/lib/checkout-sessions/service';
import type { CheckoutSessionWithItems } from '@/lib/checkout-sessions/serialize';
import type { MerchantContexts } from '@/lib/core/context';
import { inTransaction, type Db } from '@/lib/db';
import type { PaymentLink, PaymentMethod } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { ALL_PAYMENT_METHODS, getMerchantOrThrow } from '@/lib/merchants/service';
import { findPaymentByIdOrThrow } from '@/lib/payments/repository';
import { throttles } from '@/lib/throttles/rules';
import { takeHits } from '@/lib/throttles/service';
import { minutesToWait } from '@/lib/throttles/wording';
import {
  claimNextOrderNumber,
  findPaymentLinkById,
  findPaymentLinkDescription,
  findPublicPaymentLink,
  paymentLinkExists,
} from './repository';
import { paymentLinkReceiptUrl, paymentLinkUrl } from './serialize';

// The customer's side of a payment link: what its public page offers, and "Pay", which makes a fresh
// order and checkout session through createCheckoutSession (so every rule of a session holds).

/**
 * The methods a customer is offered now: the link's own list (or every method, when it has none) that the
 * merchant still approves and that takes the link's currency. A method the merchant has since withdrawn
 * drops out rather than breaking the link.
 */
export function offeredMethods(
  link: Pick<PaymentLink, 'paymentMethods' | 'currency'>,
  approved: PaymentMethod[],
): PaymentMethod[] {
  const wanted = link.paymentMethods.length > 0 ? link.paymentMethods : ALL_PAYMENT_METHODS;
  return wanted.filter((method) => approved.includes(method) && methodServesCurrency(method, link.currency));
}

/** A link as its public page shows it, or null when there is no such link. */
export async function getPublicPaymentLink(database: Db, id: string) {
  if (!isId('paymentLink', id)) return null;
  const link = await findPublicPaymentLink(database, id);
  if (!link) return null;
  return { link, merchantName: link.merchant.name, methods: offeredMethods(link, link.merchant.paymentMethods) };
}

/** What the hosted checkout of a session made from a link adds to the session's own fields: the link's words. */
export async function getPaymentLinkDescription(database: Db, linkId: string): Promise<string | null> {
  return findPaymentLinkDescription(database, linkId);
}

// refusals of createCheckoutSession that only a change of the merchant's settings can cause
const UNAVAILABLE = new Set(['payment_method_not_approved', 'payment_method_unavailable', 'url_not_approved']);

// The customer's side of each refusal: a customer can act on none of the merchant's settings, and nothing is charged.
const NOT_FOUND = 'This payment link does not exist.';
const UNAVAILABLE_NOW = 'This payment link cannot take payments right now. Nothing was charged.';

function linkMissing(linkId: string) {
  return errors.resourceMissing(`No such payment link: '${linkId}'`, 'id', NOT_FOUND);
}

function linkUnavailable(why: string) {
  return pageRefusals.paymentLinkUnavailable(why, undefined, UNAVAILABLE_NOW);
}

/**
 * "Pay" on /pay/{id}: order {id}-{n} with the next n, and its checkout session, in one transaction. The
 * counter moves in one conditional UPDATE, so concurrent customers each get their own n, and a link
 * deactivated a moment earlier refuses. Any refusal rolls the counter back with everything else. Anyone
 * can press Pay, so presses are throttled per client address, counted outside the transaction. Refusals,
 * each worded for the customer: resource_missing, rate_limited (too many checkouts from this address: each
 * one writes an order and a session), payment_link_inactive (the merchant turned it off),
 * payment_link_unavailable (the merchant's settings no longer allow paying it), parameter_invalid on
 * `quantity` (one the link does not offer), price_changed (since the customer's page showed it).
 */
export async function startPaymentLinkCheckout(
  contexts: MerchantContexts,
  linkId: string,
  clientAddress: string | null,
  /**
   * what the customer's page sent: how many they chose, when the link lets them (adjustable_quantity; else
   * one), and the price it showed them, so that a price changed meanwhile is shown before it is charged
   */
  choice: { quantity?: number; shownPrice?: number } = {},
): Promise<CheckoutSessionWithItems> {
  const { quantity = 1, shownPrice } = choice;
  const database = contexts.db;
  if (!isId('paymentLink', linkId)) throw linkMissing(linkId);
  if (clientAddress) {
    const verdict = await takeHits(database, [{ rule: throttles.linkCheckoutPerAddress(), who: clientAddress }]);
    if (!verdict.allowed)
      throw errors.rateLimited(
        verdict.retryAfterSeconds,
        'Too many checkouts from this client address; retry later',
        `Too many checkouts were started from your network. Nothing was charged; try again in ${minutesToWait(verdict.retryAfterSeconds)}.`,
      );
  }
  try {
    return await inTransaction(database, async (tx) => {
      // every refusal is thrown, so the transaction gives the order number back
      const orderNumber = await claimNextOrderNumber(tx, linkId);
      if (orderNumber === null) {
        if (!(await paymentLinkExists(tx, linkId))) throw linkMissing(linkId);
        throw pageRefusals.paymentLinkInactive(
          `Payment link ${linkId} is inactive`,
          undefined,
          'This payment link is no longer available, so nothing can be paid with it.',
        );
      }
      // read after the order number's UPDATE locked the row: a price change waits for this checkout, or went first
      const link = await findPaymentLinkById(tx, linkId);
      if (shownPrice !== undefined && shownPrice !== link.amount)
        throw pageRefusals.priceChanged(
          `The price is now ${link.amount}, not ${shownPrice}`,
          'price',
          'The price changed while this page was open, and the page now shows the new one. Nothing was charged: check it, then pay again.',
        );
      if (!quantityAllowed(link, quantity))
        throw errors.parameterInvalid(
          `Quantity ${quantity} is not offered`,
          'quantity',
          'Choose a quantity this link offers. Nothing was charged.',
        );
      const merchant = await getMerchantOrThrow(tx, link.merchantId);
      const methods = offeredMethods(link, merchant.paymentMethods);
      if (methods.length === 0) throw linkUnavailable(`No approved payment method can take ${link.currency}`);

      const receiptUrl = paymentLinkReceiptUrl(link.id);
      const pageUrl = paymentLinkUrl(link.id);
      // made for the link's merchant at its time (its test clock, lib/test-clocks/service.ts), as one made by its
      // API key would be
      const context = { ...contexts.of(link.merchantId, merchant.clockOffsetSeconds), db: tx };
      const session = await createCheckoutSession(
        context,
        {
          order_reference: `${link.id}-${orderNumber}`,
          currency: link.currency,
          items: [{ name: link.name, quantity, unit_amount: link.amount }],
          shipping_amount: 0,
          tax_amount: 0,
          amount: link.amount * quantity,
          // the merchant's own page when they gave one (its host is checked again here), else our receipt
          return_url: link.afterPaymentUrl ?? receiptUrl,
          // "Back" on the checkout returns to the link's page, where the customer can start again
          cancel_url: pageUrl,
          payment_methods: methods,
        },
        // the session copies the link's metadata (lib/core/metadata.ts), as the payment will copy the session's
        { paymentLinkId: link.id, ownUrls: [receiptUrl, pageUrl], metadata: metadataOf(link.metadata) },
      );
      return session;
    });
  } catch (error) {
    if (error instanceof ApiError && UNAVAILABLE.has(error.code)) throw linkUnavailable(error.message);
    throw error;
  }
}

/** One, or a whole number within the link's adjustable_quantity when it has one. */
export function quantityAllowed(
  link: Pick<PaymentLink, 'quantityMinimum' | 'quantityMaximum'>,
  quantity: number,
): boolean {
  if (!Number.isInteger(quantity)) return false;
  if (link.quantityMinimum === null || link.quantityMaximum === null) return quantity === 1;
  return quantity >= link.quantityMinimum && quantity <= link.quantityMaximum;
}

/**
 * The receipt of a paid session of this link, or null: the session must belong to the link and be
 * complete, so a receipt URL with another session id shows nothing.
 */
export async function getPaymentLinkReceipt(database: Db, linkId: string, sessionId: string) {
  if (!isId('paymentLink', linkId) || !isId('checkoutSession', sessionId)) return null;
  const session = await findCompleteSessionOfLink(database, linkId, sessionId);
  if (!session?.paymentId || !session.paymentLink) return null;
  const payment = await findPaymentByIdOrThrow(database, session.paymentId);
  return { link: session.paymentLink, merchantName: session.merchant.name, payment };
}
