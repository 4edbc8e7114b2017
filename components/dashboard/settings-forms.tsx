'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import type { FormState } from '@/lib/dashboard/form-state';
import { FormStatus } from './form-status';
import { useFormAction } from './use-form-action';

type Action<Field extends string> = (state: FormState<Field>, formData: FormData) => Promise<FormState<Field>>;

export function BusinessNameForm({ action, name }: { action: Action<'name'>; name: string }) {
  const [state, formAction, pending] = useFormAction(action);
  const [value, setValue] = useState(name);
  const error = state.status === 'error' ? state.fieldErrors?.name : undefined;
  return (
    <form action={formAction} className="space-y-3">
      <TextField
        id="business-name"
        name="name"
        label="Business name"
        required
        maxLength={100}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={error}
        hint="Customers see it on the hosted checkout page and in the sidebar here."
      />
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…" disabled={value.trim() === name}>
          Save
        </Button>
        <FormStatus state={state} />
      </div>
    </form>
  );
}

export function AddWebsiteForm({ action }: { action: Action<'host'> }) {
  const [host, setHost] = useState('');
  const [state, formAction, pending] = useFormAction(action, (answer) => {
    if (answer.status === 'ok') setHost('');
  });
  // an error speaks of what was sent; once the field is edited it no longer applies
  const error = state.status === 'error' && state.values?.host === host ? state.fieldErrors?.host : undefined;
  return (
    <form action={formAction} className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          id="website-host"
          name="host"
          label="Host"
          placeholder="shop.example.com"
          autoComplete="off"
          spellCheck={false}
          required
          value={host}
          onChange={(event) => setHost(event.target.value)}
          error={error}
          hint="A hostname, with :port when it is not 80 or 443. Pasting a URL takes its host."
          className="flex-1"
        />
        <Button type="submit" pending={pending} pendingLabel="Adding…" className="sm:mt-6">
          Add website
        </Button>
      </div>
      <FormStatus state={state} />
    </form>
  );
}

const METHODS = [
  { value: 'card', label: 'Card', description: 'CAD and USD. Test cards on the hosted page.' },
  { value: 'usdc', label: 'USDC', description: 'USD only. A sandbox wallet transfer.' },
  { value: 'interac', label: 'Interac', description: 'CAD only. The customer approves in a sandbox bank.' },
];

export function PaymentMethodsForm({ action, methods }: { action: Action<'methods'>; methods: string[] }) {
  const [state, formAction, pending] = useFormAction(action);
  const saved = methods.join(',');
  const [chosen, setChosen] = useEdit(saved);
  const error = state.status === 'error' ? state.fieldErrors?.methods : undefined;
  const chosenMethods = chosen.split(',');
  return (
    <form action={formAction} className="space-y-4">
      {/* keyed by what is saved: see SavedChoices */}
      <fieldset key={saved} aria-describedby={error ? 'methods-error' : undefined}>
        <legend className="sr-only">Approved payment methods</legend>
        <div className="space-y-3">
          {METHODS.map((method) => (
            <Choice
              key={method.value}
              name="methods"
              value={method.value}
              label={method.label}
              description={method.description}
              defaultChecked={methods.includes(method.value)}
              onChange={(event) =>
                setChosen(
                  METHODS.map((each) => each.value)
                    .filter((value) => (value === method.value ? event.target.checked : chosenMethods.includes(value)))
                    .join(','),
                )
              }
            />
          ))}
        </div>
        {error && (
          <p id="methods-error" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </fieldset>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…" disabled={chosen === saved} className="shrink-0">
          Save methods
        </Button>
        <FormStatus state={state} />
      </div>
    </form>
  );
}

export function RefundPolicyForm({ action, policy }: { action: Action<'policy'>; policy: 'automatic' | 'manual' }) {
  const [state, formAction, pending] = useFormAction(action);
  const [chosen, setChosen] = useEdit<string>(policy);
  return (
    <form action={formAction} className="space-y-4">
      {/* keyed by what is saved: see SavedChoices */}
      <fieldset key={policy}>
        <legend className="sr-only">Refund policy</legend>
        <div className="space-y-3">
          <Choice
            type="radio"
            name="policy"
            value="automatic"
            label="Automatic"
            description="Refund requests are authorized at once and sent to the provider."
            defaultChecked={policy === 'automatic'}
            onChange={() => setChosen('automatic')}
          />
          <Choice
            type="radio"
            name="policy"
            value="manual"
            label="Manual"
            description="Refund requests wait under Refunds until someone here approves or declines them."
            defaultChecked={policy === 'manual'}
            onChange={() => setChosen('manual')}
          />
        </div>
      </fieldset>
      <div className="flex items-center gap-3">
        <Button
          type="submit"
          pending={pending}
          pendingLabel="Saving…"
          disabled={chosen === policy}
          className="shrink-0"
        >
          Save policy
        </Button>
        <FormStatus state={state} />
      </div>
    </form>
  );
}

/*
 * SavedChoices: React resets a form once its action has run, and a reset puts each checkbox and radio
 * back to its checked attribute, which a controlled input keeps from its first render. So "Manual" was
 * saved and "Automatic" was shown beside "Refunds now wait for your approval". These choices are
 * uncontrolled instead, with defaultChecked from what the server saved, and keyed by it: after a save
 * they are drawn afresh from the saved value, and the reset lands on that same value. The form itself
 * keeps its key, so the line saying what was saved stays.
 */

/** What the person has chosen, starting over from the saved value whenever the server's changes. */
function useEdit<Value>(saved: Value): [Value, (value: Value) => void] {
  const [edit, setEdit] = useState({ saved, value: saved });
  return [edit.saved === saved ? edit.value : saved, (value) => setEdit({ saved, value })];
}
