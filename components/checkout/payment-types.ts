import type { CardFields, FieldErrors, InteracFields } from '@/lib/payments/hosted-form';

// What the hosted payment form sends to its server action, and what it gets back.

/** What a method's form sends; the payment form adds the e-mail asked above every method. */
export type MethodInput =
  | { method: 'card'; card: CardFields }
  | { method: 'usdc' }
  | { method: 'interac'; outcome: 'approve' | 'decline'; interac: InteracFields };

/** `email`: the customer's, which lib/payments/hosted-form.ts says when a method needs. */
export type PayFormInput = MethodInput & { email: string };

export type FormFieldErrors = FieldErrors<CardFields> & FieldErrors<InteracFields> & { email?: string };

export type PayOutcome =
  /** Paid: show the confirmation, then send the customer to returnUrl. */
  | { kind: 'paid'; returnUrl: string; receiptEmail: string | null }
  /** Nothing was paid (a decline, or a problem on our side); the form stays so the customer can try again. */
  | { kind: 'failed'; message: string }
  /** The server's own check of the fields failed. */
  | { kind: 'invalid'; errors: FormFieldErrors }
  /** The session can no longer be paid (paid elsewhere, expired, order paid): reload to show why. */
  | { kind: 'closed' }
  /** The session has had as many declines as the hosted page takes: no more cards or Interac transfers. */
  | { kind: 'declines_exhausted'; message: string };

/**
 * How a method's form pays: `control` names the button to show in progress. It resolves to what that form
 * shows itself (a decline, the server's field errors), or null when the payment form took over (paid, closed)
 * or another payment is already on its way.
 */
export type PayWith = (
  input: MethodInput,
  control: string,
) => Promise<Extract<PayOutcome, { kind: 'failed' | 'invalid' }> | null>;

/**
 * The payment form's check of the e-mail it asks above every method, which a method's form makes with its own
 * fields' checks: false when the e-mail is wrong for that method (the form then shows why, and focuses it).
 */
export type CheckEmail = (method: MethodInput['method']) => boolean;

/** The session data the payment form needs; everything else stays on the server. */
export type PaymentFormSession = {
  merchantName: string;
  totalLabel: string;
  methods: Array<'card' | 'usdc' | 'interac'>;
  /** the session's customer_email, which prefills the e-mail field */
  customerEmail: string | null;
  /** where "return to {merchant}" goes when the checkout takes no more cards */
  backUrl: string;
  /** the session has had as many declines as the hosted page takes */
  declinesExhausted: boolean;
};

export type UsdcDeposit = { address: string; network: string; amount: string; qrDataUrl: string };
