import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { classNames } from './class-names';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

// Each variant names its own focus outline colour: classNames only joins, so a shared one could not be overridden.
const VARIANTS: Record<Variant, string> = {
  primary:
    'bg-accent-600 text-white shadow-sm hover:bg-accent-700 disabled:bg-accent-600/70 focus-visible:outline-accent-600',
  secondary:
    'border border-gray-300 bg-white text-gray-800 shadow-sm hover:bg-gray-50 disabled:text-gray-500 focus-visible:outline-accent-600',
  ghost: 'text-accent-700 hover:bg-accent-50 focus-visible:outline-accent-600',
  /** the confirm button of a destructive action (revoke, delete, decline) */
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/70 focus-visible:outline-red-600',
};

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  size?: 'md' | 'lg';
  /** While true the button is disabled and shows a spinner with pendingLabel, so a second click cannot send twice. */
  pending?: boolean;
  pendingLabel?: ReactNode;
};

export function Button({
  variant = 'primary',
  size = 'md',
  pending = false,
  pendingLabel,
  disabled,
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type="button"
      {...props}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={classNames(
        'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed',
        size === 'lg' ? 'h-12 px-5 text-base' : 'h-10 px-4 text-sm',
        VARIANTS[variant],
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
