import { formatMoney, MAX_AMOUNT } from '@/lib/core/money';

// An amount as people type it, in their locale: "45.50", "45,50", "1 234,50", "1,234.50", "$45.50",
// "45,50 $", "CA$45.50". Read into minor units, or refused with a sentence when it cannot be one amount: a
// lone separator before three digits ("1,500", "1.500") is a thousands separator in one locale and a decimal
// point in another, so it is asked about rather than guessed. Pure: the browser shows what it understood
// before the server, reading it the same way, saves it.

export const AMOUNT_FORMAT = 'Enter an amount like 12.50.';
export const AMOUNT_TOO_LARGE = `Enter at most ${formatMoney(MAX_AMOUNT, 'USD').replace('US$', '')}.`;

export type ReadAmount = { amount: number } | { error: string };

// currency marks a person may put before or after the number; the code names a currency when it has one
const CURRENCY_MARKS: [RegExp, string | null][] = [
  [/^(?:CA\$|C\$|CAD)\s*|\s*(?:CA\$|C\$|CAD)$/i, 'CAD'],
  [/^(?:US\$|USD)\s*|\s*(?:US\$|USD)$/i, 'USD'],
  [/^\$\s*|\s*\$$/, null],
];

/** Spaces people and locales put between thousands: ordinary, no-break and narrow no-break, thin. */
const GROUP_SPACES = /[\s\u00a0\u202f\u2009]/g;

/**
 * The amount typed, in minor units, or why it is not one. `currency`, when given, refuses a mark of the other
 * currency ("US$5" for a CAD price).
 */
export function readMajorAmount(input: string, currency?: string): ReadAmount {
  let text = input.trim();
  for (const [mark, code] of CURRENCY_MARKS) {
    if (!mark.test(text)) continue;
    if (code && currency && code !== currency)
      return { error: `That amount is in ${code}, but this one is in ${currency}.` };
    text = text.replace(mark, '');
    break;
  }
  text = text.replace(GROUP_SPACES, '');
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { error: AMOUNT_FORMAT };

  const separators = [...new Set(text.replace(/\d/g, ''))];
  let whole: string;
  let cents = '';
  if (separators.length === 0) {
    whole = text;
  } else if (separators.length === 2) {
    // both: the last one is the decimal point, the other groups thousands ("1.234,50", "1,234.50")
    const point = text[text.search(/[.,][^.,]*$/)];
    const [grouped, decimals] = text.split(point);
    if (text.split(point).length !== 2 || !groupsOfThousands(grouped, point === '.' ? ',' : '.'))
      return { error: AMOUNT_FORMAT };
    whole = grouped.replace(/[.,]/g, '');
    cents = decimals;
  } else {
    const separator = separators[0];
    const parts = text.split(separator);
    if (parts.length > 2) {
      // "1,234,567" or "1.234.567": only a thousands separator repeats
      if (!groupsOfThousands(text, separator)) return { error: AMOUNT_FORMAT };
      whole = parts.join('');
    } else if (parts[1].length === 3 && parts[0] !== '' && parts[0] !== '0') {
      const grouped = `${parts[0]}${parts[1]}`;
      return {
        error: `“${input.trim()}” could be ${Number(grouped)} or ${parts[0]}.${parts[1]}: type ${Number(grouped)} without a separator, or the amount with two decimals.`,
      };
    } else {
      [whole, cents] = parts;
    }
  }
  if (cents.length > 2 || (separators.length > 0 && cents === '' && !/[.,]\d{3}$/.test(text)))
    return { error: AMOUNT_FORMAT };
  if (whole.replace(/^0+/, '').length > 9) return { error: AMOUNT_TOO_LARGE };
  const amount = Number(whole || '0') * 100 + Number(cents.padEnd(2, '0'));
  if (amount > MAX_AMOUNT) return { error: AMOUNT_TOO_LARGE };
  return { amount };
}

/** "1,234,567" with `separator` ",": one to three digits, then groups of exactly three. */
function groupsOfThousands(text: string, separator: string): boolean {
  const [first, ...groups] = text.split(separator);
  return /^\d{1,3}$/.test(first) && groups.every((group) => /^\d{3}$/.test(group));
}

/** What the amount field understood, to show under it before anything is saved: "CA$45.50", or null. */
export function understoodAmount(input: string, currency: string): string | null {
  if (!input.trim()) return null;
  const read = readMajorAmount(input, currency);
  return 'amount' in read ? formatMoney(read.amount, currency) : null;
}
