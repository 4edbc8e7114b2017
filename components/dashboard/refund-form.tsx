'use client';

import { useState, type FormEvent } from 'react';
import { DetailList } from '@/components/dashboard/page-header';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';
import { TextAreaField } from '@/components/ui/textarea-field';
import { AmountField } from '@/components/dashboard/amount-understood';
import { formatMoney, toMajorInput } from '@/lib/dashboard/format';
import type { FormState } from '@/lib/dashboard/form-state';
import { readRefundAmount } from '@/lib/refunds/dashboard-amount';
import type { RefundField, RefundFormState } from '@/lib/refunds/dashboard-form';
import type { RefundStatus } from '@/lib/generated/prisma/client';
import { useFormAction } from './use-form-action';

type RefundAction = (state: FormState<RefundField>, formData: FormData) => Promise<RefundFormState>;

/** Where each of this payment's refunds is now, as the server last rendered it. */
export type RefundProgress = Record<string, { status: RefundStatus; failureReason: string | null }>;

/**
 * Refund part or all of a payment. The amount starts as all that is left ("Full amount" puts it back), is
 * typed in major units as people write them, read back under the field, and named with the payment in a
 * dialog before anything is sent; the server then checks it with the API's rules, and a refusal keeps what
 * was typed. After a request, the line that says so follows the refund (the page refreshes while it is on
 * its way), with a failure's reason. USDC payments need a note on how the customer's own destination was
 * verified, because the service never refunds to the address that paid: it is checked before the dialog.
 */
export function RefundForm({
  action,
  payment,
  refundable,
  refunds,
  isUsdc,
  policy,
}: {
  action: RefundAction;
  payment: { id: string; currency: string; orderReference: string; method: string };
  /** minor units still refundable; 0 turns the form into a note, keeping its last answer */
  refundable: number;
  refunds: RefundProgress;
  isUsdc: boolean;
  policy: 'automatic' | 'manual';
}) {
  // null: all that is left, which follows the payment as refunds take from it
  const [typedAmount, setAmount] = useState<string | null>(null);
  const amount = typedAmount ?? toMajorInput(refundable);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  // the amount the open dialog names; null while no dialog is open
  const [confirming, setConfirming] = useState<number | null>(null);
  // said before sending, about the amount (and the USDC note) as they were typed then
  const [checked, setChecked] = useState<{ amount: string; error: string } | null>(null);
  const [checkedNote, setCheckedNote] = useState<{ note: string; error: string } | null>(null);
  const [state, formAction, pending] = useFormAction<RefundFormState>(action, (answer) => {
    setConfirming(null);
    if (answer.status === 'ok') {
      setAmount(null);
      setReason('');
      setNote('');
    }
  });

  function confirmFirst(event: FormEvent<HTMLFormElement>) {
    // the dialog's own button sends the form; the Refund button (or Enter) only opens the dialog
    if (confirming !== null) return;
    event.preventDefault();
    const read = readRefundAmount(amount, refundable, payment.currency);
    const noteError = isUsdc ? usdcNoteError(note) : undefined;
    setChecked('error' in read ? { amount, error: read.error } : null);
    setCheckedNote(noteError ? { note, error: noteError } : null);
    if ('error' in read) document.getElementById('refund-amount')?.focus();
    else if (noteError) document.getElementById('refund-note')?.focus();
    if ('error' in read || noteError) return;
    setConfirming(read.amount);
  }

  const errors = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  // an error speaks of what was sent; once the field is edited it no longer applies
  const sent = state.status === 'error' ? (state.values ?? {}) : {};
  const amountError = checked?.amount === amount ? checked.error : amount === sent.amount ? errors.amount : undefined;
  const noteError = checkedNote?.note === note ? checkedNote.error : note === sent.note ? errors.note : undefined;
  const requested = state.status === 'ok' && 'refundId' in state ? state : null;
  const progress = requested ? refunds[requested.refundId] : undefined;
  // a failed refund says why here, where the reader is looking, rather than pointing elsewhere
  const done = requested ? (
    <Notice tone={progress?.status === 'failed' ? 'warning' : 'info'}>
      <span role="status">
        {requested.message} {progressOf(progress, policy)}
      </span>
    </Notice>
  ) : null;

  if (refundable === 0) {
    return (
      <div className="space-y-3">
        {done}
        <Notice tone="info">The whole amount is refunded or being refunded. Nothing is left to refund.</Notice>
      </div>
    );
  }
  const refundLabel = confirming === null ? '' : formatMoney(confirming, payment.currency);
  return (
    <form action={formAction} onSubmit={confirmFirst} noValidate className="space-y-4">
      <input type="hidden" name="paymentId" value={payment.id} />
      {done}
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
      <AmountField
        id="refund-amount"
        label={`Amount (${payment.currency})`}
        placeholder="0.00"
        currency={payment.currency}
        fallback={`Up to ${formatMoney(refundable, payment.currency)} can be refunded.`}
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={amountError}
      />
      {typedAmount !== null && (
        <Button variant="secondary" onClick={() => setAmount(null)} className="-mt-2">
          Full amount ({formatMoney(refundable, payment.currency)})
        </Button>
      )}
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
          label="Destination verification note (required)"
          required
          maxLength={1000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={noteError}
          hint="USDC is never sent back to the address that paid, which may be an exchange’s. Ask the customer for a wallet of their own and check that it is theirs; this note records that wallet and how you checked it (e.g. “Refund to 0x…: the customer signed a message from it on a support call”). It is kept with the refund, which goes to the wallet it describes."
        />
      )}
      <Button type="submit">Refund</Button>
      <Dialog
        open={confirming !== null}
        onClose={() => !pending && setConfirming(null)}
        title={`Refund ${refundLabel}?`}
        description={
          policy === 'manual'
            ? 'It goes back to the customer once someone approves it under Refunds.'
            : 'It goes back to the customer: the provider sends it in a moment, and after that it cannot be undone.'
        }
      >
        <div className="mb-5 rounded-lg bg-gray-50 px-4 py-3">
          <DetailList
            items={[
              { label: 'Amount', value: <span className="font-semibold">{refundLabel}</span> },
              { label: 'Payment', value: <span className="font-mono text-xs break-all">{payment.id}</span> },
              { label: 'Order', value: payment.orderReference },
              { label: 'Paid with', value: payment.method },
            ]}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={pending}>
            Go back
          </Button>
          <Button type="submit" pending={pending} pendingLabel="Requesting refund…">
            Refund {refundLabel}
          </Button>
        </div>
      </Dialog>
    </form>
  );
}

/** Why the USDC note cannot be sent, before the dialog: the API's rule (1–1000 characters), in words. */
function usdcNoteError(note: string): string | undefined {
  if (!note.trim()) return USDC_NOTE_MISSING;
  if (note.trim().length > 1000) return 'Keep the note under 1,000 characters.';
}

const USDC_NOTE_MISSING = 'Say which wallet of the customer’s the refund goes to and how you checked it is theirs.';

/** The second half of "Refund of US$10.00 requested. …", from where that refund is now. */
function progressOf(progress: RefundProgress[string] | undefined, policy: 'automatic' | 'manual'): string {
  switch (progress?.status) {
    case 'completed':
      return 'The provider has completed it.';
    case 'failed':
      return progress.failureReason
        ? `The provider could not complete it: ${progress.failureReason}`
        : 'The provider could not complete it.';
    case 'declined':
      return 'It has been declined.';
    case 'canceled':
      return 'It has been canceled.';
    case 'processing':
      return 'The provider completes it in a moment.';
    default:
      return policy === 'manual' ? 'It waits for approval under Refunds.' : 'The provider completes it in a moment.';
  }
}
