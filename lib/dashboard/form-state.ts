import { unstable_rethrow } from 'next/navigation';
import { z } from 'zod';
import { ApiError, errors } from '@/lib/core/errors';
import { describeError, log } from '@/lib/log';
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

/** What a person is told of a failure that is no refusal (a bug, or a fault on our side); the log has the rest. */
export const UNEXPECTED_FAILURE = errors.internal().userMessage;

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
 * The one answer of every form action to what its service threw: a refusal (ApiError) is its userMessage,
 * beside the field its `param` names (through `fields`, the form's table of API params) or above the form when
 * it names none, keeping what was typed (`values`); the words are always the service's. Anything else is a
 * bug or a fault on our side: logged with `logged` (never a form's fields), and the person gets `unexpected`,
 * never its message or stack. Next's own throws (redirect, notFound) go on.
 */
export function toFormState<Field extends string>(
  error: unknown,
  fields: Readonly<Partial<Record<string, Field>>>,
  values?: Partial<Record<Field, string>>,
  options: { unexpected?: string; logged?: Record<string, unknown> } = {},
): FormState<Field> {
  unstable_rethrow(error);
  if (!(error instanceof ApiError) || error.status >= 500) {
    log.error('a form action failed', { ...options.logged, ...describeError(error) });
    return failed(options.unexpected ?? UNEXPECTED_FAILURE, values);
  }
  const field = fieldOfParam(error.param, fields);
  return field
    ? refused({ [field]: error.userMessage } as Partial<Record<Field, string>>, values)
    : failed(error.userMessage, values);
}
