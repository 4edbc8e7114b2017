'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';

export type PayLinkState = { message: string | null };

/**
 * "Pay": a form posting to the server action, so it works before JavaScript loads. The action answers
 * with a redirect to the new checkout, or a message; while it runs the button is disabled, so an eager
 * double click starts one checkout.
 */
export function PayButton({
  action,
  label,
}: {
  action: (state: PayLinkState, form: FormData) => Promise<PayLinkState>;
  label: string;
}) {
  const [state, formAction, pending] = useActionState(action, { message: null });
  return (
    <form action={formAction} className="space-y-3">
      {state.message && <Notice tone="danger">{state.message}</Notice>}
      <Button type="submit" size="lg" className="w-full" pending={pending} pendingLabel="Opening checkout…">
        {label}
      </Button>
      <p className="text-center text-xs text-gray-600">You enter your payment details on the next page.</p>
    </form>
  );
}
