import { MathBN, MedusaError } from '@medusajs/framework/utils';
import type { BigNumberInput } from '@medusajs/framework/types';

// Medusa keeps amounts in major units (37.5 USD) with lower-case currency codes; the sandbox takes integer
// minor units (3750) and CAD or USD. Both currencies have two decimals.

const MINOR_DIGITS: Record<string, number> = { usd: 2, cad: 2 };

/** USD or CAD as the sandbox spells it; other currencies are refused with a clear error. */
export function sandboxCurrency(currencyCode: string): 'USD' | 'CAD' {
  const code = currencyCode.toLowerCase();
  if (code === 'usd' || code === 'cad') return code.toUpperCase() as 'USD' | 'CAD';
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `Sandbox payments takes USD or CAD only; this payment is in ${currencyCode.toUpperCase()}`,
  );
}

/** Major units to integer minor units, exactly (decimal arithmetic, no floats), rounding half up. */
export function toMinorUnits(amount: BigNumberInput, currencyCode: string): number {
  const digits = MINOR_DIGITS[currencyCode.toLowerCase()] ?? 2;
  // toFixed() without an argument writes every digit and never an exponent
  const decimal = MathBN.convert(amount).toFixed();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Amount ${decimal} is not a non-negative number`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(digits + 1, '0');
  const kept = Number(whole + fraction.slice(0, digits));
  const roundsUp = Number(fraction[digits]) >= 5;
  const minor = kept + (roundsUp ? 1 : 0);
  if (!Number.isSafeInteger(minor))
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Amount ${decimal} is too large`);
  return minor;
}

/** Integer minor units back to Medusa's major units, exactly. */
export function toMajorUnits(minor: number, currencyCode: string) {
  const digits = MINOR_DIGITS[currencyCode.toLowerCase()] ?? 2;
  return MathBN.div(minor, 10 ** digits);
}
