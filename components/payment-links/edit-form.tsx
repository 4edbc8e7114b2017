'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { TextAreaField } from '@/components/ui/textarea-field';
import type { FormState } from '@/lib/dashboard/form-state';
import type { PaymentLinkField } from '@/lib/payment-links/dashboard-form';
import { useFormAction } from '@/components/dashboard/use-form-action';

type EditAction = (state: FormState<PaymentLinkField>, form: FormData) => Promise<FormState<PaymentLinkField>>;

/** Rename or redescribe a link. The price stays: customers who were sent the link pay what it said. */
export function EditPaymentLinkForm({
  action,
  linkId,
  name,
  description,
}: {
  action: EditAction;
  linkId: string;
  name: string;
  description: string | null;
}) {
  const [state, formAction, pending] = useFormAction(action);
  const [values, setValues] = useState({ name, description: description ?? '' });
  const errors = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="linkId" value={linkId} />
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
        onChange={(event) => setValues((current) => ({ ...current, name: event.target.value }))}
        error={errors.name}
      />
      <TextAreaField
        id="edit-link-description"
        name="description"
        label="Description (optional)"
        maxLength={1000}
        value={values.description}
        onChange={(event) => setValues((current) => ({ ...current, description: event.target.value }))}
        error={errors.description}
      />
      <p className="text-xs text-gray-600">
        The price, currency and methods of a shared link do not change. To sell at another price, create a new link.
      </p>
      <Button type="submit" variant="secondary" pending={pending} pendingLabel="Saving…">
        Save changes
      </Button>
    </form>
  );
}
