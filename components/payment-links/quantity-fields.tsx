'use client';

import { useState } from 'react';
import { Choice } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';

/**
 * "Let customers choose the quantity" and its range, on the new link's form and a link's edit form, holding what
 * is typed (kept while the range is hidden). The fields post as adjustableQuantity, quantityMinimum and
 * quantityMaximum (app/(dashboard)/dashboard/payment-links/actions.ts); `onEdit` tells the form a change was made.
 */
export function QuantityFields({
  idPrefix,
  initial,
  onEdit,
  error,
}: {
  idPrefix: string;
  initial: { adjustable: boolean; minimum: number; maximum: number };
  onEdit: () => void;
  error?: string;
}) {
  const [adjustable, setAdjustable] = useState(initial.adjustable);
  const [range, setRange] = useState({ minimum: String(initial.minimum), maximum: String(initial.maximum) });
  const onRangeChange = (change: { minimum: string } | { maximum: string }) => {
    onEdit();
    setRange((current) => ({ ...current, ...change }));
  };
  const errorId = `${idPrefix}-quantity-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-gray-700">Quantity</legend>
      <Choice
        className="mt-2"
        name="adjustableQuantity"
        checked={adjustable}
        onChange={(event) => {
          onEdit();
          setAdjustable(event.target.checked);
        }}
        label="Let customers choose the quantity"
        description="They pay for as many as they choose, within your range. Otherwise each payment buys one."
      />
      {adjustable && (
        <div className="mt-3 grid grid-cols-2 gap-3 pl-7">
          <TextField
            id={`${idPrefix}-quantity-minimum`}
            name="quantityMinimum"
            label="Least"
            inputMode="numeric"
            value={range.minimum}
            onChange={(event) => onRangeChange({ minimum: event.target.value })}
          />
          <TextField
            id={`${idPrefix}-quantity-maximum`}
            name="quantityMaximum"
            label="Most"
            inputMode="numeric"
            value={range.maximum}
            onChange={(event) => onRangeChange({ maximum: event.target.value })}
          />
        </div>
      )}
      {error && (
        <p id={errorId} className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
