'use client';

import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/dashboard/form-state';
import { useAnnounce } from './action-announcer';
import { SecretDialog } from './secret-dialog';
import { useFormAction } from './use-form-action';

// Buttons that run one server action on one object (approve this refund, revoke this key). The object
// travels as a hidden field; the action re-reads it under the signed-in merchant, so a tampered id
// finds nothing.

export type ObjectAction = (state: FormState, formData: FormData) => Promise<FormState>;

function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** One click, no confirmation: for actions that are easy to live with (approve, resend, send a test). */
export function ActionButton({
  action,
  fields,
  children,
  pendingLabel,
  variant = 'secondary',
  showSuccess = false,
}: {
  action: ObjectAction;
  fields: Record<string, string>;
  children: ReactNode;
  pendingLabel: string;
  variant?: 'primary' | 'secondary' | 'ghost';
  /** show the action's success line beside the button (e.g. a test event's answer) */
  showSuccess?: boolean;
}) {
  const [state, formAction, pending] = useFormAction(action);
  return (
    <form action={formAction} className="relative z-10 inline-flex flex-col items-start gap-1">
      <HiddenFields fields={fields} />
      <Button type="submit" variant={variant} pending={pending} pendingLabel={pendingLabel} className="h-8 px-3">
        {children}
      </Button>
      {state.status === 'error' && (
        <p role="alert" className="max-w-xs text-xs text-red-700">
          {state.message}
        </p>
      )}
      {showSuccess && state.status === 'ok' && (
        <p role="status" className="max-w-xs text-xs text-green-800">
          {state.message}
        </p>
      )}
    </form>
  );
}

/**
 * An action behind a confirmation dialog that says what will happen: destructive ones (revoke, decline)
 * and ones that move money (approve a refund). Inside an ActionAnnouncer, what it did, or why not, is said
 * above the list, and the dialog closes either way.
 */
export function ConfirmAction({
  action,
  fields,
  trigger,
  title,
  description,
  confirmLabel,
  pendingLabel,
  triggerVariant = 'secondary',
  triggerClassName,
  triggerDescribedBy,
  confirmVariant = 'danger',
  cancelLabel = 'Keep it',
  reveal,
}: {
  action: ObjectAction;
  fields: Record<string, string>;
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  triggerVariant?: 'primary' | 'secondary' | 'ghost';
  triggerClassName?: string;
  /** the id of a line that says what the trigger does, next to others like it */
  triggerDescribedBy?: string;
  /** primary for an action that is wanted, not feared (approve) */
  confirmVariant?: 'danger' | 'primary';
  cancelLabel?: string;
  /** when the action answers with a secret (a rotated signing secret), show it once in a dialog */
  reveal?: { title: string; explanation: string; warning: string };
}) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const announce = useAnnounce();
  // announced from the action's answer, not from an effect: the same refresh that brings the answer may
  // remove this row's buttons (the refund moved on), and an unmounted effect never runs
  const [state, formAction, pending] = useFormAction(action, (answer) => {
    announce?.(answer);
    if (answer.status === 'error' && announce) setOpen(false);
    if (answer.status !== 'ok') return;
    setOpen(false);
    if (reveal && answer.secret) setSecret(answer.secret);
  });

  return (
    <span className="relative z-10 inline-flex">
      <Button
        variant={triggerVariant}
        onClick={() => setOpen(true)}
        className={triggerClassName ?? 'h-8 px-3'}
        aria-describedby={triggerDescribedBy}
      >
        {trigger}
      </Button>
      <Dialog open={open} onClose={() => !pending && setOpen(false)} title={title} description={description}>
        <form action={formAction} className="space-y-4">
          <HiddenFields fields={fields} />
          {state.status === 'error' && state.message && !announce && <Notice tone="danger">{state.message}</Notice>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={pending}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={confirmVariant} pending={pending} pendingLabel={pendingLabel}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </Dialog>
      {reveal && (
        <SecretDialog
          secret={secret}
          onClose={() => setSecret(null)}
          title={reveal.title}
          explanation={reveal.explanation}
          warning={reveal.warning}
        />
      )}
    </span>
  );
}
