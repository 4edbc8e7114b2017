import { cardBrand, isExpired, normalizeCardNumber, passesLuhn } from './cards';

// The hosted checkout form's rules. The browser runs them for instant inline errors; the server action runs
// them again because a browser can be bypassed. Pure, so they are safe in a client bundle.

export type CardFields = { number: string; expiry: string; cvc: string; name: string };
export type InteracFields = { bank: string };
export type FieldErrors<Fields> = Partial<Record<keyof Fields, string>>;

/** Banks the sandbox pretends to talk to; nothing is sent to any of them. */
export const SANDBOX_BANKS = [
  'RBC Royal Bank',
  'TD Canada Trust',
  'Scotiabank',
  'BMO Bank of Montreal',
  'CIBC',
  'Desjardins',
  'National Bank',
  'Tangerine',
] as const;

export const EXPIRY_MONTH_INVALID = 'Your card’s expiry month is invalid: use 01 to 12.';

/** "MM / YY", "MM/YY" or "MMYY" → the month as written and a four-digit year; null when it has another shape. */
function readExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(expiry) ?? /^\s*(\d{2})(\d{2})\s*$/.exec(expiry);
  return match ? { month: Number(match[1]), year: 2000 + Number(match[2]) } : null;
}

const isMonth = (month: number) => month >= 1 && month <= 12;

/** "MM / YY", "MM/YY" or "MMYY" → a month and a four-digit year; null when it is not a real month. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const written = readExpiry(expiry);
  return written && isMonth(written.month) ? written : null;
}

/** American Express prints a four-digit code on the front; the other brands three on the back. */
export function cvcLength(cardNumber: string): 3 | 4 {
  return cardBrand(normalizeCardNumber(cardNumber)) === 'amex' ? 4 : 3;
}

export function cardFormErrors(fields: CardFields, at: Date): FieldErrors<CardFields> {
  const errors: FieldErrors<CardFields> = {};
  const digits = normalizeCardNumber(fields.number);
  if (!digits) errors.number = 'Enter your card number.';
  else if (!passesLuhn(digits)) errors.number = 'Your card number is invalid.';

  // "13 / 30" has the right shape: what is wrong is the month, and the customer is told so
  const expiry = readExpiry(fields.expiry);
  if (!fields.expiry.trim()) errors.expiry = 'Enter the expiry date.';
  else if (!expiry) errors.expiry = 'Use the format MM / YY.';
  else if (!isMonth(expiry.month)) errors.expiry = EXPIRY_MONTH_INVALID;
  else if (isExpired(expiry.month, expiry.year, at)) errors.expiry = 'Your card has expired.';

  const cvc = fields.cvc.trim();
  if (!cvc) errors.cvc = 'Enter the CVC.';
  else if (!/^\d+$/.test(cvc) || cvc.length !== cvcLength(digits)) errors.cvc = 'The CVC is incomplete.';

  const name = fields.name.trim();
  if (!name) errors.name = 'Enter the name on your card.';
  else if (name.length > 200) errors.name = 'The name on your card is too long.';
  return errors;
}

/** The methods that need the customer's e-mail: a card pays without one (it is only where a receipt would go). */
export function emailRequired(method: 'card' | 'usdc' | 'interac'): boolean {
  return method !== 'card';
}

/** The customer's e-mail, asked above every method: required for USDC and Interac, optional for a card. */
export function customerEmailError(email: string, method: 'card' | 'usdc' | 'interac'): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return emailRequired(method) ? 'Enter your e-mail address.' : undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) || trimmed.length > 254) return 'Enter a valid e-mail address.';
}

export function interacFormErrors(fields: InteracFields): FieldErrors<InteracFields> {
  const errors: FieldErrors<InteracFields> = {};
  if (!(SANDBOX_BANKS as readonly string[]).includes(fields.bank)) errors.bank = 'Choose your bank.';
  return errors;
}

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
