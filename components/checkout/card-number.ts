import { cardBrand } from '@/lib/payments/cards';

// Formatting of card fields as the customer types: digits grouped the way the card prints them.

const AMEX_GROUPS = [4, 6, 5];
const DEFAULT_GROUPS = [4, 4, 4, 4, 3];

export function formatCardNumber(input: string): string {
  const brand = cardBrand(input.replace(/\D/g, ''));
  const digits = input.replace(/\D/g, '').slice(0, brand === 'amex' ? 15 : 19);
  const groups = brand === 'amex' ? AMEX_GROUPS : DEFAULT_GROUPS;
  const parts: string[] = [];
  let start = 0;
  for (const size of groups) {
    if (start >= digits.length) break;
    parts.push(digits.slice(start, start + size));
    start += size;
  }
  return parts.join(' ');
}

/** The caret position in `formatted` just after its `digitCount`-th digit, so editing mid-number keeps the caret in place. */
export function caretAfterDigits(formatted: string, digitCount: number): number {
  if (digitCount <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index++) {
    if (/\d/.test(formatted[index]) && ++seen === digitCount) return index + 1;
  }
  return formatted.length;
}

/** "MM / YY" as typed; a first digit of 2–9 can only be a month, so it becomes 02–09. */
export function formatExpiry(input: string): string {
  let digits = input.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && digits > '1') digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}
