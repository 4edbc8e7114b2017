'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { PlusIcon } from '@/components/ui/icons';
import type { FormState } from '@/lib/dashboard/form-state';
import { DialogFormActions } from './dialog-form-actions';
import { SecretDialog } from './secret-dialog';
import { submitKeepingValues, useFieldErrors, useFormAction } from './use-form-action';

type KeyField = 'name' | 'scopes';
type CreateKeyAction = (state: FormState<KeyField>, formData: FormData) => Promise<FormState<KeyField>>;

/** "Create API key": a name and scopes in a dialog, then the key once in another. */
export function ApiKeyCreator({
  action,
  scopes,
  label = 'Create API key',
}: {
  action: CreateKeyAction;
  scopes: { value: string; description: string }[];
  label?: string;
}) {
  const [choosing, setChoosing] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [chosen, setChosen] = useState(() => scopes.map((scope) => scope.value));
  const [name, setName] = useState('');
  const [state, formAction, pending] = useFormAction(action, (answer) => {
    if (answer.status === 'ok' && answer.secret) {
      setChoosing(false);
      setRevealed(answer.secret);
      setName('');
    }
  });
  const { errorOf, markEdited } = useFieldErrors(state);

  const error = errorOf('scopes');
  return (
    <>
      <Button onClick={() => setChoosing(true)}>
        <PlusIcon />
        {label}
      </Button>
      <Dialog
        open={choosing}
        onClose={() => !pending && setChoosing(false)}
        title="Create an API key"
        description="Give the key only the scopes your code needs. Every scope is checked on every request."
      >
        <form action={formAction} onSubmit={submitKeepingValues(formAction)} noValidate className="space-y-4">
          <TextField
            id="key-name"
            name="name"
            label="Name (optional)"
            autoComplete="off"
            maxLength={100}
            placeholder="Checkout tests"
            value={name}
            onChange={(event) => {
              markEdited('name');
              setName(event.target.value);
            }}
            error={errorOf('name')}
            hint="Says which key is which in the list and in Logs."
          />
          <fieldset aria-describedby={error ? 'scopes-error' : undefined} onChange={() => markEdited('scopes')}>
            <legend className="text-sm font-medium text-gray-700">Scopes</legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {scopes.map((scope) => (
                <Choice
                  key={scope.value}
                  name="scopes"
                  value={scope.value}
                  label={<span className="font-mono text-xs">{scope.value}</span>}
                  description={scope.description}
                  aria-label={scope.value}
                  checked={chosen.includes(scope.value)}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked
                        ? [...current, scope.value]
                        : current.filter((value) => value !== scope.value),
                    )
                  }
                />
              ))}
            </div>
            {error && (
              <p id="scopes-error" className="mt-2 text-sm text-red-700">
                {error}
              </p>
            )}
          </fieldset>
          <DialogFormActions
            state={state}
            pending={pending}
            onCancel={() => setChoosing(false)}
            submitLabel="Create key"
            pendingLabel="Creating…"
          />
        </form>
      </Dialog>
      <SecretDialog
        secret={revealed}
        onClose={() => setRevealed(null)}
        title="Your new API key"
        explanation="Use it as a Bearer token: Authorization: Bearer sk_sandbox_…. It is a sandbox key; no money can move with it."
        warning="It will not be shown again: we keep only a hash of it. If it is lost, create another and revoke this one."
        confirmCopied
      />
    </>
  );
}
