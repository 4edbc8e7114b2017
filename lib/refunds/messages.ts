import { formatMoney } from '@/lib/core/money';

// What the refund rules say to a person (ApiError.userMessage). Pure, so the dashboard's browser code can
// word its own early checks the same way.

/** Said beside the amount when more is asked than is left. */
export function amountLeftMessage(left: number, currency: string): string {
  return left === 0
    ? 'Nothing is left to refund on this payment.'
    : `Only ${formatMoney(left, currency)} is left to refund on this payment.`;
}

export const USDC_NOTE_REQUIRED =
  'USDC payments are never refunded to the address they were sent from. Describe how the customer’s own destination address was verified.';

export const NOTE_USDC_ONLY = 'Only USDC payments take a destination note.';

export const PAYMENT_NOT_FOUND = 'This payment was not found.';
