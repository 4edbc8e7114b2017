import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { classNames } from './class-names';
import { Spinner } from './spinner';

/** The confirm button of a destructive action (revoke, delete, decline): red, with Button's pending behaviour. */
export function DangerButton({
  pending = false,
  pendingLabel,
  disabled,
  className,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { pending?: boolean; pendingLabel?: ReactNode }) {
  return (
    <button
      type="button"
      {...props}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={classNames(
        'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-red-600 px-4 text-sm font-medium text-white shadow-sm transition-colors',
        'hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:bg-red-600/70',
        className,
      )}
    >
      {pending ? (
        <>
          <Spinner />
          {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}
