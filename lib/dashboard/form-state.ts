import { z } from 'zod';
import { parseActionArguments } from '@/lib/server-actions/arguments';

// What a dashboard server action answers to its form: nothing yet, done (with a line to show), or
// refused with a message per field and what was typed, so the form keeps it. The forms (client components)
// import it too: what only an action runs, toFormState with its logging, is in ./to-form-state.ts.

export type FormState<Field extends string = string> =
  | { status: 'idle' }
  | {
      status: 'ok';
      message: string;
      /** a secret made by the action, to show once (API key, webhook signing secret) */ secret?: string;
      /** a rotated signing secret that still signs beside `secret`, and until when (ISO) */
      previousSecret?: string;
      previousSecretUntil?: string;
    }
  | {
      status: 'error';
      message?: string;
      fieldErrors?: Partial<Record<Field, string>>;
      values?: Partial<Record<Field, string>>;
    };

export const IDLE: FormState<never> = { status: 'idle' };

export function refused<Field extends string>(
  fieldErrors: Partial<Record<Field, string>>,
  values?: Partial<Record<Field, string>>,
  message?: string,
): FormState<Field> {
  return { status: 'error', fieldErrors, values, ...(message ? { message } : {}) };
}

export function failed<Field extends string>(
  message: string,
  values?: Partial<Record<Field, string>>,
): FormState<Field> {
  return { status: 'error', message, values };
}

/** What every dashboard form action is called with (useActionState): the form's last answer, unused, and its data. */
export type FormActionArguments<Field extends string = string> = [previous: FormState<Field>, formData: FormData];

/** The FormData of a form action's arguments, or null when they are not what a form sends (see parseActionArguments). */
export function formDataOf(args: readonly unknown[]): FormData | null {
  return parseActionArguments(args, z.unknown(), z.instanceof(FormData))?.[1] ?? null;
}

/** A form action's answer to arguments no form of ours sends. */
export const UNREADABLE_FORM: FormState<never> = failed('This form could not be read. Reload the page and try again.');

/** A form field's text (a missing field is empty). */
export function field(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}
