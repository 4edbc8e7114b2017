import type { CardFields, FieldErrors, InteracFields } from '@/lib/payments/hosted-form';

// What the hosted payment form sends to its server action, and what it gets back.

export type PayFormInput =
  | { method: 'card'; card: CardFields }
  | { method: 'usdc' }
  | { method: 'interac'; outcome: 'approve' | 'decline'; interac: InteracFields };

export type FormFieldErrors = FieldErrors<CardFields> & FieldErrors<InteracFields>;

export type PayOutcome =
  /** Paid: show the confirmation, then send the customer to returnUrl. */
  | { kind: 'paid'; returnUrl: string }
  /** Nothing was paid (a decline, or a problem on our side); the form stays so the customer can try again. */
  | { kind: 'failed'; message: string }
  /** The server's own check of the fields failed. */
  | { kind: 'invalid'; errors: FormFieldErrors }
  /** The session can no longer be paid (paid elsewhere, expired, order paid): reload to show why. */
  | { kind: 'closed' };

/**
 * How a method's form pays: `control` names the button to show in progress. It resolves to what that form
 * shows itself (a decline, the server's field errors), or null when the payment form took over (paid, closed)
 * or another payment is already on its way.
 */
export type PayWith = (
  input: PayFormInput,
  control: string,
) => Promise<Extract<PayOutcome, { kind: 'failed' | 'invalid' }> | null>;

/** The session data the payment form needs; everything else stays on the server. */
export type PaymentFormSession = {
  merchantName: string;
  totalLabel: string;
  methods: Array<'card' | 'usdc' | 'interac'>;
};

export type UsdcDeposit = { address: string; network: string; amount: string; qrDataUrl: string };
