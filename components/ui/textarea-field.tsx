import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { classNames } from './class-names';

// A labelled multi-line input, in the look of field.tsx's TextField: label above, hint or error below,
// the error tied to the control for assistive technology.
type TextAreaFieldProps = { id: string; label: ReactNode; error?: string; hint?: ReactNode; className?: string } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'className'
>;

export function TextAreaField({ id, label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  const describedBy = [error && `${id}-error`, hint && !error && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        {...textarea}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={classNames(
          'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base text-gray-900 shadow-sm placeholder:text-gray-500 sm:text-sm',
          'focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600',
          error ? 'border-red-500' : 'border-gray-300',
        )}
      />
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
