// Card rules of the sandbox: Luhn, brand, and the test cards of /docs#testing.

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

export type CardOutcome =
  | { status: 'succeeded'; refundsFail: boolean }
  | { status: 'failed'; failureCode: 'card_declined' | 'insufficient_funds' };

export const TEST_CARDS = [
  { number: '4242424242424242', description: 'Succeeds' },
  { number: '4000000000000002', description: 'Declined (card_declined)' },
  { number: '4000000000009995', description: 'Declined (insufficient_funds)' },
  { number: '4000000000005126', description: 'Succeeds, but its refunds fail' },
] as const;

export function cardOutcome(digits: string): CardOutcome {
  switch (digits) {
    case '4000000000000002':
      return { status: 'failed', failureCode: 'card_declined' };
    case '4000000000009995':
      return { status: 'failed', failureCode: 'insufficient_funds' };
    case '4000000000005126':
      return { status: 'succeeded', refundsFail: true };
    default:
      return { status: 'succeeded', refundsFail: false };
  }
}

/** A card is good through the last day of its expiry month. */
export function isExpired(expMonth: number, expYear: number, at: Date): boolean {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + 1;
  return expYear < year || (expYear === year && expMonth < month);
}
