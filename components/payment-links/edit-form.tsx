'use client';

import { useState, type FormEvent } from 'react';
import { AmountField } from '@/components/dashboard/amount-understood';
import { submitKeepingValues, useFieldErrors, useFormAction } from '@/components/dashboard/use-form-action';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { TextAreaField } from '@/components/ui/textarea-field';
import { readMajorAmount } from '@/lib/dashboard/amount-input';
import { formatMoney, toMajorInput } from '@/lib/dashboard/format';
import type { FormState } from '@/lib/dashboard/form-state';
import type { PaymentLinkField } from '@/lib/payment-links/dashboard-form';
import { QuantityFields } from './quantity-fields';

type EditAction = (state: FormState<PaymentLinkField>, form: FormData) => Promise<FormState<PaymentLinkField>>;

/**
 * A link's words, price and quantities. A new price is read back under the field as it is typed, and named
 * beside the old one in a dialog before it is saved: customers who open the link afterwards pay it, while
 * checkouts already started keep the price they were made with. The currency and methods stay as made.
 */
export function EditPaymentLinkForm({
  action,
  link,
}: {
  action: EditAction;
  link: {
    id: string;
    name: string;
    description: string | null;
    amount: number;
    currency: string;
    quantityMinimum: number | null;
    quantityMaximum: number | null;
  };
}) {
  // the new price the open dialog names; null while no dialog is open
  const [confirming, setConfirming] = useState<number | null>(null);
  const [state, formAction, pending] = useFormAction(action, () => setConfirming(null));
  const { errorOf, markEdited } = useFieldErrors(state);
  const [values, setValues] = useState({
    name: link.name,
    description: link.description ?? '',
    amount: toMajorInput(link.amount),
  });
  const set = (name: 'name' | 'description' | 'amount') => (event: { target: { value: string } }) => {
    markEdited(name);
    setValues((current) => ({ ...current, [name]: event.target.value }));
  };

  function confirmNewPrice(event: FormEvent<HTMLFormElement>) {
    // the dialog's own button sends the form; Save (or Enter) opens the dialog when the price is new
    if (confirming === null) {
      const read = readMajorAmount(values.amount, link.currency);
      if ('amount' in read && read.amount !== link.amount) {
        event.preventDefault();
        setConfirming(read.amount);
        return;
      }
    }
    // an unreadable price is sent too: the server says what is wrong with it beside every other field
    submitKeepingValues(formAction)(event);
  }

  const oldPrice = formatMoney(link.amount, link.currency);
  const newPrice = confirming === null ? '' : formatMoney(confirming, link.currency);
  return (
    // noValidate: the server checks every field at once and says so beside each
    <form action={formAction} onSubmit={confirmNewPrice} noValidate className="space-y-4">
      <input type="hidden" name="linkId" value={link.id} />
      {state.status === 'ok' && (
        <Notice tone="info">
          <span role="status">{state.message}</span>
        </Notice>
      )}
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
      <TextField
        id="edit-link-name"
        name="name"
        label="Name"
        required
        maxLength={200}
        value={values.name}
        onChange={set('name')}
        error={errorOf('name')}
      />
      <TextAreaField
        id="edit-link-description"
        name="description"
        label="Description (optional)"
        maxLength={1000}
        value={values.description}
        onChange={set('description')}
        error={errorOf('description')}
      />
      <AmountField
        id="edit-link-amount"
        label={`Price (${link.currency})`}
        currency={link.currency}
        value={values.amount}
        onChange={set('amount')}
        error={errorOf('amount')}
      />
      <QuantityFields
        idPrefix="edit-link"
        initial={{
          adjustable: link.quantityMinimum !== null,
          minimum: link.quantityMinimum ?? 1,
          maximum: link.quantityMaximum ?? 10,
        }}
        onEdit={() => markEdited('quantity')}
        error={errorOf('quantity')}
      />
      <p className="text-xs text-gray-600">
        Checkouts already started keep the price and quantity they were opened with. The currency and payment methods
        stay as the link was made; for others, create a new link.
      </p>
      <Button type="submit" variant="secondary" pending={pending && confirming === null} pendingLabel="Saving…">
        Save changes
      </Button>
      <Dialog
        open={confirming !== null}
        onClose={() => !pending && setConfirming(null)}
        title={`Change the price to ${newPrice}?`}
        description={`Customers who open the link from now on pay ${newPrice} instead of ${oldPrice}. Checkouts already started keep ${oldPrice}.`}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={pending}>
            Keep {oldPrice}
          </Button>
          <Button type="submit" pending={pending} pendingLabel="Saving…">
            Change price to {newPrice}
          </Button>
        </div>
      </Dialog>
    </form>
  );
}
