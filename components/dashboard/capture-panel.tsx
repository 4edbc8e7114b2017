'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import { AmountField } from '@/components/dashboard/amount-understood';
import { DetailList } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';
import { readCaptureAmount } from '@/lib/payments/dashboard-capture-amount';
import type { CaptureField } from '@/lib/payments/dashboard-actions';
import { formatMoney, toMajorInput } from '@/lib/dashboard/format';
import type { FormState } from '@/lib/dashboard/form-state';
import { useFormAction } from './use-form-action';

type CaptureAction = (state: FormState<CaptureField>, formData: FormData) => Promise<FormState<CaptureField>>;
type CancelAction = (state: FormState<never>, formData: FormData) => Promise<FormState<never>>;

/** The payment as this panel needs it; `expiresAt` is when an authorization that stands is canceled. */
export type AuthorizationView = {
  id: string;
  currency: string;
  amount: number;
  orderReference: string;
  status: string;
  amountCaptured: number;
  cancellationReason: string | null;
  expiresAt: Date;
};

/**
 * Capture (all or part) or Cancel an authorization. The amount starts as all of it, is typed in major units as
 * people write them and read back under the field; each change is named in a dialog that says what will happen
 * before anything is sent. Each confirmation carries a key of its own, so a submission the browser sends again
 * is done once. Once the payment has moved, the panel says how it ended, keeping its last answer.
 */
export function CapturePanel({
  payment,
  captureAction,
  cancelAction,
}: {
  payment: AuthorizationView;
  captureAction: CaptureAction;
  cancelAction: CancelAction;
}) {
  const [typedAmount, setAmount] = useState<string | null>(null);
  const amount = typedAmount ?? toMajorInput(payment.amount);
  // the change the open dialog names, with the key its submission carries; null while no dialog is open
  const [confirming, setConfirming] = useState<
    { change: 'capture'; amount: number; submission: string } | { change: 'cancel'; submission: string } | null
  >(null);
  const [checked, setChecked] = useState<{ amount: string; error: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const close = (answer: FormState) => {
    setConfirming(null);
    if (answer.status === 'ok') setDone(answer.message);
  };
  const [captureState, captureFormAction, capturing] = useFormAction<FormState<CaptureField>>(captureAction, close);
  const [cancelState, cancelFormAction, canceling] = useFormAction<FormState<never>>(cancelAction, close);
  const pending = capturing || canceling;

  const said = done ? (
    <Notice tone="info">
      <span role="status">{done}</span>
    </Notice>
  ) : null;
  if (payment.status !== 'requires_capture') {
    return (
      <div className="space-y-3 text-sm text-gray-700">
        {said}
        <p>{outcomeOf(payment)}</p>
      </div>
    );
  }

  function confirmCapture(event: FormEvent<HTMLFormElement>) {
    // the dialog's own button sends the form; Capture (or Enter) only opens the dialog
    if (confirming?.change === 'capture') return;
    event.preventDefault();
    const read = readCaptureAmount(amount, payment.amount, payment.currency);
    setChecked('error' in read ? { amount, error: read.error } : null);
    if ('error' in read) {
      document.getElementById('capture-amount')?.focus();
      return;
    }
    setConfirming({ change: 'capture', amount: read.amount, submission: newSubmissionKey() });
  }

  const sent = captureState.status === 'error' ? (captureState.values ?? {}) : {};
  const fieldError = captureState.status === 'error' ? captureState.fieldErrors?.amount : undefined;
  const amountError = checked?.amount === amount ? checked.error : amount === sent.amount ? fieldError : undefined;
  const capture = confirming?.change === 'capture' ? confirming : null;
  const taken = capture ? formatMoney(capture.amount, payment.currency) : '';
  const released = capture ? payment.amount - capture.amount : 0;
  const whole = formatMoney(payment.amount, payment.currency);

  return (
    <div className="space-y-5">
      {said}
      <p className="text-sm text-gray-700">
        {whole} is held on the customer’s card. Capture it when the order ships; the hold ends{' '}
        <RelativeTime value={payment.expiresAt} />, and the authorization is canceled if it is not captured by then.
      </p>
      <form action={captureFormAction} onSubmit={confirmCapture} noValidate className="space-y-4">
        <input type="hidden" name="paymentId" value={payment.id} />
        <input type="hidden" name="submission" value={capture?.submission ?? ''} />
        {captureState.status === 'error' && captureState.message && (
          <Notice tone="danger">{captureState.message}</Notice>
        )}
        <AmountField
          id="capture-amount"
          label={`Amount to capture (${payment.currency})`}
          placeholder="0.00"
          currency={payment.currency}
          fallback={`Up to ${whole} can be captured.`}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={amountError}
        />
        <div className="flex flex-wrap gap-2">
          {typedAmount !== null && (
            <Button variant="secondary" onClick={() => setAmount(null)}>
              Full amount ({whole})
            </Button>
          )}
          <Button type="submit">Capture</Button>
        </div>
        <Dialog
          open={capture !== null}
          onClose={() => !pending && setConfirming(null)}
          title={`Capture ${taken}?`}
          description={
            released > 0
              ? `${taken} is taken from the customer’s card and the other ${formatMoney(released, payment.currency)} of the hold is released. An authorization is captured once: the rest cannot be captured later.`
              : `The whole ${taken} is taken from the customer’s card.`
          }
        >
          <Summary payment={payment} amountLabel="Capture" amount={taken} />
          <DialogButtons
            onBack={() => setConfirming(null)}
            pending={capturing}
            pendingLabel="Capturing…"
            label={`Capture ${taken}`}
          />
        </Dialog>
      </form>
      <form
        action={cancelFormAction}
        onSubmit={(event) => {
          if (confirming?.change === 'cancel') return;
          event.preventDefault();
          setConfirming({ change: 'cancel', submission: newSubmissionKey() });
        }}
        className="space-y-3 border-t border-gray-100 pt-4"
      >
        <input type="hidden" name="paymentId" value={payment.id} />
        <input type="hidden" name="submission" value={confirming?.change === 'cancel' ? confirming.submission : ''} />
        {cancelState.status === 'error' && cancelState.message && <Notice tone="danger">{cancelState.message}</Notice>}
        <p className="text-sm text-gray-600">Not shipping? Release the hold instead: nothing is taken.</p>
        <Button type="submit" variant="secondary">
          Cancel authorization
        </Button>
        <Dialog
          open={confirming?.change === 'cancel'}
          onClose={() => !pending && setConfirming(null)}
          title="Cancel this authorization?"
          description={`The hold of ${whole} on the customer’s card is released and nothing is taken. The order is free to be paid again, by a new checkout. This cannot be undone.`}
        >
          <Summary payment={payment} amountLabel="Release" amount={whole} />
          <DialogButtons
            onBack={() => setConfirming(null)}
            pending={canceling}
            pendingLabel="Canceling…"
            label="Cancel authorization"
            danger
          />
        </Dialog>
      </form>
    </div>
  );
}

function Summary({
  payment,
  amountLabel,
  amount,
}: {
  payment: AuthorizationView;
  amountLabel: string;
  amount: string;
}) {
  return (
    <div className="mb-5 rounded-lg bg-gray-50 px-4 py-3">
      <DetailList
        items={[
          { label: amountLabel, value: <span className="font-semibold">{amount}</span> },
          { label: 'Authorized', value: formatMoney(payment.amount, payment.currency) },
          { label: 'Payment', value: <span className="font-mono text-xs break-all">{payment.id}</span> },
          { label: 'Order', value: payment.orderReference },
        ]}
      />
    </div>
  );
}

function DialogButtons({
  onBack,
  pending,
  pendingLabel,
  label,
  danger = false,
}: {
  onBack: () => void;
  pending: boolean;
  pendingLabel: ReactNode;
  label: string;
  danger?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onBack} disabled={pending}>
        Go back
      </Button>
      <Button type="submit" variant={danger ? 'danger' : 'primary'} pending={pending} pendingLabel={pendingLabel}>
        {label}
      </Button>
    </div>
  );
}

/**
 * A random key (a version 4 UUID) for one confirmed submission. crypto.randomUUID exists only on https and
 * localhost, and a sandbox may be opened over plain http on a network: getRandomValues works everywhere.
 */
function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How an authorization ended, once it has. */
function outcomeOf(payment: AuthorizationView): string {
  const whole = formatMoney(payment.amount, payment.currency);
  if (payment.status === 'succeeded') {
    const rest = payment.amount - payment.amountCaptured;
    return rest > 0
      ? `Captured ${formatMoney(payment.amountCaptured, payment.currency)} of the ${whole} authorized; the other ${formatMoney(rest, payment.currency)} was released.`
      : `Captured the whole ${whole} authorized.`;
  }
  if (payment.status === 'canceled')
    return payment.cancellationReason === 'expired'
      ? `The authorization expired before it was captured: the hold of ${whole} was released, and the order is free to be paid again.`
      : `The authorization was canceled: the hold of ${whole} was released, and the order is free to be paid again.`;
  return 'This payment was not authorized, so there is nothing to capture.';
}
