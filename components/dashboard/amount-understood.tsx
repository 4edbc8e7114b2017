import { TextField, type TextFieldProps } from '@/components/ui/field';
import { readMajorAmount, understoodAmount } from '@/lib/dashboard/amount-input';

/**
 * Under an amount field: the amount as it was understood ("Reads as CA$45.50"), or, while what is typed is
 * not one amount, why (a separator that locales read two ways is asked about), before anything is saved.
 * `fallback` is said while the field is empty.
 */
export function AmountUnderstood({
  input,
  currency,
  fallback = 'Type it as you write it: 45.50, 45,50 or 1 234,50.',
}: {
  input: string;
  currency: string;
  fallback?: string;
}) {
  if (!input.trim()) return <>{fallback}</>;
  const understood = understoodAmount(input, currency);
  if (understood)
    return (
      <>
        Reads as <span className="font-semibold text-gray-900 tabular-nums">{understood}</span>.
      </>
    );
  const read = readMajorAmount(input, currency);
  return <>{'error' in read ? read.error : null}</>;
}

/**
 * An amount typed as the person writes it (posted as `amount`), with what it reads as beneath: the refund and
 * capture forms and the payment link's price.
 */
export function AmountField({
  currency,
  fallback,
  value,
  ...input
}: Omit<TextFieldProps, 'name' | 'hint' | 'value'> & { currency: string; fallback?: string; value: string }) {
  return (
    <TextField
      name="amount"
      inputMode="decimal"
      autoComplete="off"
      required
      value={value}
      hint={<AmountUnderstood input={value} currency={currency} fallback={fallback} />}
      {...input}
    />
  );
}
