import type { ReactNode } from 'react';

// What every labelled form control has around it: the label above, the hint or the error below, both
// tied to the control with aria-describedby so assistive technology reads them with it.

export type FieldFrameProps = { id: string; label: ReactNode; error?: string; hint?: ReactNode; className?: string };

/** The control's aria-describedby: the error, or the hint while there is no error (only one is shown). */
export function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error && `${id}-error`, hint && !error && `${id}-hint`].filter(Boolean).join(' ') || undefined;
}

export function FieldFrame({ id, label, error, hint, className, children }: FieldFrameProps & { children: ReactNode }) {
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
