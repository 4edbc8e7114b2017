import { amountLeftMessage } from './messages';
import { AMOUNT_FORMAT, readMajorAmount } from '@/lib/dashboard/amount-input';

// The Refund form's amount, read the same way in the browser (before a confirmation names it) and on the
// server (which decides, since the payment may have changed meanwhile). Pure, so both can import it.

export { AMOUNT_FORMAT };

/** "0" and "0.00" are amounts, just not ones that refund anything: the API answers them the same way. */
export const REFUND_AMOUNT_NOT_POSITIVE = 'The amount must be positive: enter more than 0.00.';

export { amountLeftMessage };

/** The typed amount in minor units, or why it cannot be refunded from what the page knows is left. */
export function readRefundAmount(
  input: string,
  left: number,
  currency: string,
): { amount: number } | { error: string } {
  const read = readMajorAmount(input, currency);
  if ('error' in read) return read;
  const { amount } = read;
  if (amount < 1) return { error: REFUND_AMOUNT_NOT_POSITIVE };
  if (amount > left) return { error: amountLeftMessage(left, currency) };
  return { amount };
}
