import type { UsdcDeposit } from './payment-types';

// What the hosted checkout page shows, already formatted for people; app/checkout/[id]/load-checkout.ts builds it.

/** open: the form. complete: paid. expired: too late. order_paid: open, but another session paid its order. */
export type CheckoutState = 'open' | 'complete' | 'expired' | 'order_paid';

/** description: the payment link's own words, under its name, on a session made from a link. */
export type CheckoutLine = {
  name: string;
  description: string | null;
  quantity: number;
  unitLabel: string;
  amountLabel: string;
};

export type HostedCheckout = {
  id: string;
  state: CheckoutState;
  merchantName: string;
  totalLabel: string;
  lines: CheckoutLine[];
  /**
   * Subtotal, shipping and tax, for a merchant's order; null for a session made from a payment link, which
   * sells one fixed amount and never has shipping or tax, so "Shipping Free · Tax —" would say nothing true.
   */
  charges: { subtotalLabel: string; shippingLabel: string | null; taxLabel: string | null } | null;
  methods: Array<'card' | 'usdc' | 'interac'>;
  expiresAt: string;
  renderedAt: string;
  /** The merchant's cancel_url: "Back to {merchant}" while the session is open. Null when none was given. */
  cancelUrl: string | null;
  /** Where a customer goes back when there is nothing to pay: cancel_url, else the home page of return_url's site. */
  backUrl: string;
  /** Where a paid customer returns: return_url with session_id. */
  paidReturnUrl: string;
  /** "Visa •••• 4242" and friends, once paid. */
  paidWith: string | null;
  usdc: UsdcDeposit | null;
  /** The session's customer_email while open (the form's e-mail starts with it); once paid, the payment's. */
  customerEmail: string | null;
  /** The session has had as many declines as the hosted page takes: no more cards or Interac transfers. */
  declinesExhausted: boolean;
};
