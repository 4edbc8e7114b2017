import type { TextareaHTMLAttributes } from 'react';
import { classNames } from './class-names';
import { describedBy, FieldFrame, type FieldFrameProps } from './field-frame';

// A labelled multi-line input, in the look of field.tsx's TextField.
type TextAreaFieldProps = FieldFrameProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>;

export function TextAreaField({ id, label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <textarea
        id={id}
        rows={3}
        {...textarea}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={classNames(
          'block w-full rounded-lg border bg-white px-3 py-2 text-base text-gray-900 shadow-sm placeholder:text-gray-500 sm:text-sm',
          'focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600',
          error ? 'border-red-500' : 'border-gray-300',
        )}
      />
    </FieldFrame>
  );
}
