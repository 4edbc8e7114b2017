'use client';

import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatMoney } from '@/lib/core/money';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/dashboard/form-state';

type PayLinkState = FormState<never>;

/**
 * "Pay": a form posting to the server action, so it works before JavaScript loads. The action answers
 * with a redirect to the new checkout, or a message; while it runs the button is disabled, so an eager
 * double click starts one checkout.
 */
export function PayButton({
  action,
  label,
  price,
  quantity,
}: {
  action: (state: PayLinkState, form: FormData) => Promise<PayLinkState>;
  label: string;
  /** the price the page shows, in minor units: sent back, so a price changed since is not charged unseen */
  price: number;
  /** the link's adjustable_quantity: the customer chooses how many, and the button says the total */
  quantity?: { minimum: number; maximum: number; unitAmount: number; currency: string };
}) {
  const [state, formAction, pending] = useActionState<PayLinkState, FormData>(action, { status: 'idle' });
  const [count, setCount] = useState(quantity ? String(quantity.minimum) : '1');
  const chosen = Number(count);
  const valid = !quantity || (Number.isInteger(chosen) && chosen >= quantity.minimum && chosen <= quantity.maximum);
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="price" value={price} />
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
      {quantity && (
        <TextField
          id="link-quantity"
          name="quantity"
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={quantity.minimum}
          max={quantity.maximum}
          step={1}
          value={count}
          onChange={(event) => setCount(event.target.value)}
          error={valid ? undefined : `Choose from ${quantity.minimum} to ${quantity.maximum}.`}
          hint={`From ${quantity.minimum} to ${quantity.maximum}.`}
        />
      )}
      <Button
        type="submit"
        size="lg"
        className="w-full"
        pending={pending}
        pendingLabel="Opening checkout…"
        disabled={!valid}
      >
        {quantity && valid ? `Pay ${formatMoney(quantity.unitAmount * chosen, quantity.currency)}` : label}
      </Button>
      <p className="text-center text-xs text-gray-600">You enter your payment details on the next page.</p>
    </form>
  );
}
