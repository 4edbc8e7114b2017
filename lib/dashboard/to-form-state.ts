import { unstable_rethrow } from 'next/navigation';
import { ApiError, errors } from '@/lib/core/errors';
import { describeError, log } from '@/lib/log';
import { failed, refused, type FormState } from './form-state';

// A server action's answer to what its service threw (server only: it logs, which the forms in the browser
// that import ./form-state.ts must not bundle).

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
