'use client';

import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import type { FormState } from '@/lib/dashboard/form-state';
import type { RevealField } from '@/lib/webhooks/dashboard-actions';
import { DialogFormActions } from './dialog-form-actions';
import { RelativeTime } from './relative-time';
import { useFieldErrors, useFormAction } from './use-form-action';

type RevealAction = (state: FormState<RevealField>, formData: FormData) => Promise<FormState<RevealField>>;

type Revealed = { secret: string; previous: { secret: string; until: string } | null };

/**
 * "Reveal" beside an endpoint's hidden signing secret: the user types the account's password again, then
 * sees the secret (and a rotation's old one while it still signs) with copy buttons. Closing forgets them.
 */
export function SecretReveal({ action, endpointId }: { action: RevealAction; endpointId: string }) {
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [state, formAction, pending] = useFormAction(action, (answer) => {
    if (answer.status !== 'ok' || !answer.secret) return;
    setRevealed({
      secret: answer.secret,
      previous:
        answer.previousSecret && answer.previousSecretUntil
          ? { secret: answer.previousSecret, until: answer.previousSecretUntil }
          : null,
    });
  });
  const { errorOf, markEdited } = useFieldErrors(state);
  const close = () => {
    setOpen(false);
    setRevealed(null);
  };
  return (
    <>
      <Button variant="secondary" className="h-8 px-3" onClick={() => setOpen(true)}>
        Reveal
      </Button>
      <Dialog
        open={open}
        onClose={() => !pending && close()}
        title="Reveal the signing secret"
        description={
          revealed
            ? 'Verify deliveries with it. Anyone who has it can sign events your receiver will accept.'
            : 'Enter your password to see the secret that signs this endpoint’s deliveries.'
        }
      >
        {revealed ? (
          <div className="space-y-4">
            <SecretLine label="Signing secret" secret={revealed.secret} testId="revealed-secret" />
            {revealed.previous && (
              <SecretLine
                label={
                  <>
                    Previous secret, signing beside it until <RelativeTime value={revealed.previous.until} exact />
                  </>
                }
                secret={revealed.previous.secret}
                testId="revealed-previous-secret"
              />
            )}
            <div className="flex justify-end">
              <Button onClick={close}>Done</Button>
            </div>
          </div>
        ) : (
          <form action={formAction} noValidate className="space-y-4">
            <input type="hidden" name="endpointId" value={endpointId} />
            <TextField
              id="reveal-password"
              name="password"
              type="password"
              label="Your password"
              autoComplete="current-password"
              required
              error={errorOf('password')}
              onChange={() => markEdited('password')}
            />
            <DialogFormActions
              state={state}
              pending={pending}
              onCancel={close}
              submitLabel="Reveal secret"
              pendingLabel="Checking…"
            />
          </form>
        )}
      </Dialog>
    </>
  );
}

function SecretLine({ label, secret, testId }: { label: ReactNode; secret: string; testId: string }) {
  return (
    <div>
      <p className="text-sm font-medium text-gray-700">{label}</p>
      <div className="mt-1 flex items-stretch gap-2">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 rounded-lg border border-gray-200 bg-gray-50 px-3 py-2.5 font-mono text-sm break-all text-gray-900 select-all"
        >
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" className="h-auto" />
      </div>
    </div>
  );
}
