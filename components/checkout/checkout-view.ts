import type { UsdcDeposit } from './payment-types';

// What the hosted checkout page shows, already formatted for people; app/checkout/[id]/load-checkout.ts builds it.

/** open: the form. complete: paid. expired: too late. order_paid: open, but another session paid its order. */
export type CheckoutState = 'open' | 'complete' | 'expired' | 'order_paid';

export type CheckoutLine = { name: string; quantity: number; unitLabel: string; amountLabel: string };

export type HostedCheckout = {
  id: string;
  state: CheckoutState;
  merchantName: string;
  totalLabel: string;
  lines: CheckoutLine[];
  subtotalLabel: string;
  shippingLabel: string | null;
  taxLabel: string | null;
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
};
