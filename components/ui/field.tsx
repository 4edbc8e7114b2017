import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { classNames } from './class-names';
import { describedBy, FieldFrame, type FieldFrameProps } from './field-frame';

// Labelled one-line form controls: every input has a <label>, and its error is tied to it with aria-describedby,
// so assistive technology reads both and browser autofill recognises the field.

const CONTROL =
  'block w-full rounded-lg border bg-white px-3 text-base text-gray-900 shadow-sm placeholder:text-gray-500 ' +
  'focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600 disabled:bg-gray-50 h-11 sm:text-sm';

function controlClass(error?: string) {
  return classNames(CONTROL, error ? 'border-red-500' : 'border-gray-300');
}

export type TextFieldProps = FieldFrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
    /** Shown inside the input at its end, e.g. a card brand mark. */
    end?: ReactNode;
    ref?: Ref<HTMLInputElement>;
  };

export function TextField({ id, label, error, hint, className, end, ...input }: TextFieldProps) {
  // a message the form shows elsewhere about this field (a card's decline) is read with it too
  const alsoDescribedBy = input['aria-describedby'];
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <input
        id={id}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={[describedBy(id, error, hint), alsoDescribedBy].filter(Boolean).join(' ') || undefined}
        className={classNames(controlClass(error), end ? 'pr-16' : undefined)}
      />
      {end && <div className="pointer-events-none absolute inset-y-0 right-0 flex items-center pr-3">{end}</div>}
    </FieldFrame>
  );
}

type SelectFieldProps = FieldFrameProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'>;

export function SelectField({ id, label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <select
        id={id}
        {...select}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={classNames(controlClass(error), 'appearance-auto pr-8')}
      >
        {children}
      </select>
    </FieldFrame>
  );
}
