'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import {
  hasErrors,
  interacFormErrors,
  SANDBOX_BANKS,
  type FieldErrors,
  type InteracFields,
} from '@/lib/payments/hosted-form';
import type { CheckEmail, PayWith } from './payment-types';

type Outcome = 'approve' | 'decline';

/** Interac e-Transfer: the customer's bank (their e-mail is asked above), then the bank's Approve / Decline, played here. */
export function InteracForm({
  pay,
  checkEmail,
  busy,
  pending,
}: {
  pay: PayWith;
  checkEmail: CheckEmail;
  busy: boolean;
  pending: string | null;
}) {
  const [fields, setFields] = useState<InteracFields>({ bank: '' });
  const [errors, setErrors] = useState<FieldErrors<InteracFields>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function update(field: keyof InteracFields, value: string) {
    const next = { ...fields, [field]: value };
    setFields(next);
    if (errors[field]) setErrors({ ...errors, [field]: interacFormErrors(next)[field] });
  }

  async function submit(outcome: Outcome) {
    const emailFine = checkEmail('interac');
    const found = interacFormErrors(fields);
    setErrors(found);
    setFailure(null);
    if (hasErrors(found) || !emailFine) {
      if (emailFine) document.getElementById('interac-bank')?.focus();
      return;
    }
    const result = await pay({ method: 'interac', outcome, interac: fields }, `interac-${outcome}`);
    if (result?.kind === 'failed') setFailure(result.message);
    if (result?.kind === 'invalid') setErrors(result.errors);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit('approve');
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Pay by Interac e-Transfer">
      <SelectField
        id="interac-bank"
        label="Bank"
        hint="A sandbox bank: no bank is contacted."
        value={fields.bank}
        error={errors.bank}
        disabled={busy}
        onChange={(event) => update('bank', event.target.value)}
      >
        <option value="" disabled>
          Choose your bank
        </option>
        {SANDBOX_BANKS.map((bank) => (
          <option key={bank} value={bank}>
            {bank}
          </option>
        ))}
      </SelectField>
      <p className="text-sm text-gray-600">
        Your bank asks you to approve the e-Transfer request. In the sandbox, you answer here.
      </p>
      {failure && <Notice tone="danger">{failure}</Notice>}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-[2fr_1fr]">
        <Button
          type="submit"
          size="lg"
          pending={pending === 'interac-approve'}
          pendingLabel="Approving…"
          disabled={busy}
        >
          Approve payment
        </Button>
        <Button
          variant="secondary"
          size="lg"
          onClick={() => void submit('decline')}
          pending={pending === 'interac-decline'}
          pendingLabel="Declining…"
          disabled={busy}
        >
          Decline
        </Button>
      </div>
    </form>
  );
}
