import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { classNames } from './class-names';

// Labelled form controls: every input has a <label>, and its error is tied to it with aria-describedby,
// so assistive technology reads both and browser autofill recognises the field.

type FieldFrame = { id: string; label: ReactNode; error?: string; hint?: ReactNode; className?: string };

const CONTROL =
  'block w-full rounded-lg border bg-white px-3 text-base text-gray-900 shadow-sm placeholder:text-gray-500 ' +
  'focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600 disabled:bg-gray-50 h-11 sm:text-sm';

function controlClass(error?: string) {
  return classNames(CONTROL, error ? 'border-red-500' : 'border-gray-300');
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, error, hint, className, children }: FieldFrame & { children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <div className="relative mt-1">{children}</div>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

type TextFieldProps = FieldFrame &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
    /** Shown inside the input at its end, e.g. a card brand mark. */
    end?: ReactNode;
    ref?: Ref<HTMLInputElement>;
  };

export function TextField({ id, label, error, hint, className, end, ...input }: TextFieldProps) {
  return (
    <Frame id={id} label={label} error={error} hint={hint} className={className}>
      <input
        id={id}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={classNames(controlClass(error), end ? 'pr-16' : undefined)}
      />
      {end && <div className="pointer-events-none absolute inset-y-0 right-0 flex items-center pr-3">{end}</div>}
    </Frame>
  );
}

type SelectFieldProps = FieldFrame & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'>;

export function SelectField({ id, label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <Frame id={id} label={label} error={error} hint={hint} className={className}>
      <select
        id={id}
        {...select}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={classNames(controlClass(error), 'appearance-auto pr-8')}
      >
        {children}
      </select>
    </Frame>
  );
}
