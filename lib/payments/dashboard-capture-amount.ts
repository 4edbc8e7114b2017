import { formatMoney } from '@/lib/core/money';
import { readMajorAmount } from '@/lib/dashboard/amount-input';

// The Capture form's amount, read the same way in the browser (before the confirmation names it) and on the
// server (which decides, since the payment may have moved meanwhile). Pure, so both can import it.

export const CAPTURE_AMOUNT_NOT_POSITIVE = 'The amount must be positive: enter more than 0.00.';

export function captureAmountTooLarge(capturable: number, currency: string): string {
  return `You can capture at most ${formatMoney(capturable, currency)}, the amount authorized.`;
}

/** The typed amount in minor units, or why it cannot be captured from what the page knows is authorized. */
export function readCaptureAmount(
  input: string,
  capturable: number,
  currency: string,
): { amount: number } | { error: string } {
  const read = readMajorAmount(input, currency);
  if ('error' in read) return read;
  if (read.amount < 1) return { error: CAPTURE_AMOUNT_NOT_POSITIVE };
  if (read.amount > capturable) return { error: captureAmountTooLarge(capturable, currency) };
  return read;
}
