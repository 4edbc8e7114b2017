import type { InputHTMLAttributes, ReactNode } from 'react';
import { classNames } from './class-names';

/** A checkbox or radio with its label beside it and an optional line of explanation under the label. */
export function Choice({
  label,
  description,
  className,
  type = 'checkbox',
  ...input
}: { label: ReactNode; description?: ReactNode; className?: string; type?: 'checkbox' | 'radio' } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'className'
>) {
  return (
    <label className={classNames('flex cursor-pointer items-start gap-3 text-sm', className)}>
      <input
        type={type}
        {...input}
        className={classNames(
          'mt-0.5 size-4 shrink-0 border-gray-400 accent-accent-600',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600',
          type === 'radio' ? 'rounded-full' : 'rounded',
        )}
      />
      <span className="min-w-0">
        <span className="block font-medium text-gray-900">{label}</span>
        {description && <span className="mt-0.5 block text-gray-600">{description}</span>}
      </span>
    </label>
  );
}
