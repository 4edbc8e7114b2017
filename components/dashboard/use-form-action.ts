'use client';

import { unstable_rethrow } from 'next/navigation';
import { startTransition, useActionState, useState, type FormEvent } from 'react';
import { failed, IDLE, type FormState } from '@/lib/dashboard/form-state';

// Dashboard forms run server actions through React's useActionState. When the action's request never
// comes back (the connection dropped, the server is down) React throws into the error boundary, which
// replaces the page and everything typed on it. These hooks keep the form on screen instead, with a line
// saying what happened, as the hosted checkout does, and let each field's error go once it is edited.

// A form's answers: FormState, or a form's own kind beside it (the refund form's names the refund it made).
type AnyFormState = FormState | { status: string };

export const UNREACHABLE_MESSAGE =
  'We could not reach the server. Check your connection and try again; what you typed is still here.';
export const SERVER_FAILED_MESSAGE =
  'Something went wrong on our side, so this may not have been done. Reload the page to see where things stand.';

/**
 * useActionState, with a failed request answered in the form rather than by the error page. `onAnswer`
 * sees each answer as it arrives, in the same transition: a form clears itself or closes its dialog there
 * rather than in an effect that watches the state (a second render, and none at all once the refresh that
 * brought the answer has removed the form).
 */
export function useFormAction<State extends AnyFormState>(
  action: (state: Awaited<State>, formData: FormData) => Promise<State>,
  onAnswer?: (answer: State) => void,
) {
  // a form state is never a promise, so Awaited<State> is State: React's types just cannot see it
  return useActionState(async (previous: Awaited<State>, formData: FormData): Promise<State> => {
    try {
      const answer = await action(previous, formData);
      onAnswer?.(answer);
      return answer;
    } catch (error) {
      // a redirect or notFound() from the action travels as an error too: the router handles those
      unstable_rethrow(error);
      // fetch rejects with a TypeError when no answer came; anything else is an answer we cannot use
      const message = error instanceof TypeError ? UNREACHABLE_MESSAGE : SERVER_FAILED_MESSAGE;
      const answer = failed(message) as State;
      onAnswer?.(answer);
      return answer;
    }
  }, IDLE as Awaited<State>);
}

/**
 * Each field's error from the form's last answer, until that field is edited: an error speaks of what was
 * sent, and a corrected (or emptied) field should not keep saying it is wrong.
 */
export function useFieldErrors<Field extends string>(state: FormState<Field>) {
  const [answer, setAnswer] = useState(state);
  const [edited, setEdited] = useState<ReadonlySet<Field>>(() => new Set());
  if (answer !== state) {
    // a new answer: its errors all apply again (React's way to reset state from a changed value)
    setAnswer(state);
    setEdited(new Set());
  }
  const errors: Partial<Record<Field, string>> = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  return {
    errorOf: (field: Field): string | undefined => (edited.has(field) ? undefined : errors[field]),
    markEdited: (field: Field) => setEdited((current) => (current.has(field) ? current : new Set([...current, field]))),
  };
}

/**
 * A form's onSubmit that sends it through its action without React's reset of the form afterwards: the
 * reset puts controlled checkboxes, radios and selects back to their first value on screen while the state
 * behind them keeps the chosen one, so the next submit would send what the merchant unticked. Without
 * JavaScript the form still posts through its `action`.
 */
export function submitKeepingValues(formAction: (formData: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => formAction(formData));
  };
}
