export const MAX_AMOUNT = 99_999_999;

export type LineItem = { quantity: number; unitAmount: number };

/** total = Σ quantity × unit_amount + shipping + tax, in minor units. Integers stay exact far past MAX_AMOUNT. */
export function computeTotal(items: LineItem[], shippingAmount: number, taxAmount: number): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitAmount, 0) + shippingAmount + taxAmount;
}

/** For people: CA$48.90 / US$48.90, so two dollars are never confused. */
export function formatMoney(amount: number, currency: string, locale = 'en-US'): string {
  const display = currency === 'USD' ? 'US$' : currency === 'CAD' ? 'CA$' : undefined;
  // A decimal string, not amount / 100: Intl formats strings exactly.
  const formatted = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
  }).format(toDecimalString(amount, 2) as unknown as number);
  return display ? formatted.replace(/^(-?)\$/, `$1${display}`) : formatted;
}

/**
 * A USD amount in cents as USDC for people: "48.90", "1,234.50". USDC has 6 decimals, but an amount in cents
 * never uses more than 2, and "48.900000" reads like a different number. Exact: Intl formats the string.
 */
export function formatUsdc(amountInCents: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    toDecimalString(amountInCents, 2) as unknown as number,
  );
}

function toDecimalString(minorUnits: number, decimals: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  const digits = String(Math.abs(minorUnits)).padStart(decimals + 1, '0');
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
