import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { parseActionArguments } from '@/lib/server-actions/arguments';

// What a dashboard server action answers to its form: nothing yet, done (with a line to show), or
// refused with a message per field and what was typed, so the form keeps it.

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

/**
 * The services refuse with ApiError (the API's error codes). For a person, the message is the part
 * worth showing; anything else is a bug and is thrown on to the error page.
 */
export function serviceRefusal(error: unknown): ApiError {
  if (error instanceof ApiError && error.status < 500) return error;
  throw error;
}

/** What a form says when the service's refusal has no sentence of its own (ApiError.userMessage), by code. */
const SAID_FOR_CODE: Record<string, string> = {
  resource_missing: 'This was not found. It may have been deleted; reload the page.',
  parameter_invalid: 'Check this and try again.',
  parameter_missing: 'Fill this in and try again.',
};
const SAID_OTHERWISE = 'This could not be done. Reload the page and try again.';

/** The sentence a person is shown for a service's refusal. */
export function sayRefusal(refusal: ApiError): string {
  return refusal.userMessage ?? SAID_FOR_CODE[refusal.code] ?? SAID_OTHERWISE;
}

/**
 * The form field a refusal's `param` names, through the form's table of API params ("payment_methods.1"
 * is looked up as itself, then as "payment_methods"); undefined when the refusal is about no field of it.
 */
export function fieldOfParam<Field extends string>(
  param: string | undefined,
  fields: Readonly<Partial<Record<string, Field>>>,
): Field | undefined {
  if (param === undefined) return undefined;
  return fields[param] ?? fields[param.split('.')[0]];
}

/**
 * A service's refusal as a form's answer: its sentence beside the field its `param` names, or above the
 * form when it names none. Anything that is not a refusal is thrown on (see serviceRefusal).
 */
export function formRefusal<Field extends string>(
  error: unknown,
  fields: Readonly<Partial<Record<string, Field>>>,
  values?: Partial<Record<Field, string>>,
): FormState<Field> {
  const refusal = serviceRefusal(error);
  const message = sayRefusal(refusal);
  const field = fieldOfParam(refusal.param, fields);
  return field ? refused({ [field]: message } as Partial<Record<Field, string>>, values) : failed(message, values);
}
