'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { TextAreaField } from '@/components/ui/textarea-field';
import type { FormState } from '@/lib/dashboard/form-state';
import { useFormAction } from './use-form-action';

type RefundField = 'amount' | 'reason' | 'note';
type RefundAction = (state: FormState<RefundField>, formData: FormData) => Promise<FormState<RefundField>>;

/**
 * Refund part or all of a payment. Amounts are typed in major units and checked by the server with the
 * API's rules; a refusal keeps what was typed. USDC payments need a note on how the customer's own
 * destination was verified, because the service never refunds to the address that paid.
 */
export function RefundForm({
  action,
  paymentId,
  currency,
  refundableLabel,
  refundableInput,
  isUsdc,
  policy,
  nothingLeft,
}: {
  action: RefundAction;
  paymentId: string;
  currency: string;
  refundableLabel: string;
  refundableInput: string;
  isUsdc: boolean;
  policy: 'automatic' | 'manual';
  /** the whole amount is refunded or reserved: the form gives way to a note, keeping its last answer */
  nothingLeft: boolean;
}) {
  const [state, formAction, pending] = useFormAction(action);
  const [amount, setAmount] = useState(refundableInput);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');

  useEffect(() => {
    if (state.status === 'ok') {
      setReason('');
      setNote('');
    }
  }, [state]);
  useEffect(() => setAmount(refundableInput), [refundableInput]);

  const errors = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  // an error speaks of what was sent; once the field is edited it no longer applies
  const sent = state.status === 'error' ? (state.values ?? {}) : {};
  const done =
    state.status === 'ok' ? (
      <Notice tone="info">
        <span role="status">
          {state.message} {policy === 'manual' ? 'It waits for approval under Refunds.' : 'The provider completes it in a moment.'}
        </span>
      </Notice>
    ) : null;
  if (nothingLeft) {
    return (
      <div className="space-y-3">
        {done}
        <Notice tone="info">The whole amount is refunded or being refunded. Nothing is left to refund.</Notice>
      </div>
    );
  }
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="paymentId" value={paymentId} />
      {done}
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
      <TextField
        id="refund-amount"
        name="amount"
        label={`Amount (${currency})`}
        inputMode="decimal"
        autoComplete="off"
        required
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={amount === sent.amount ? errors.amount : undefined}
        hint={`Up to ${refundableLabel} can be refunded.`}
      />
      <TextAreaField
        id="refund-reason"
        name="reason"
        label="Reason (optional)"
        maxLength={500}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={reason === sent.reason ? errors.reason : undefined}
        hint="Kept with the refund and sent in its events."
      />
      {isUsdc && (
        <TextAreaField
          id="refund-note"
          name="note"
          label="Destination verification note"
          required
          maxLength={1000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={note === sent.note ? errors.note : undefined}
          hint="USDC is never refunded to the address that paid (it may be an exchange’s). Say how you verified the customer’s own wallet, e.g. “Customer signed a message from 0x… on a support call”."
        />
      )}
      <Button type="submit" pending={pending} pendingLabel="Requesting refund…">
        Refund
      </Button>
    </form>
  );
}
