import type { ReactNode } from 'react';
import { classNames } from './class-names';

type Tone = 'danger' | 'warning' | 'info';

const TONES: Record<Tone, string> = {
  danger: 'border-red-200 bg-red-50 text-red-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  info: 'border-blue-200 bg-blue-50 text-blue-900',
};

/** A boxed message. Danger notices are alerts, so screen readers announce them as they appear. */
export function Notice({
  tone = 'info',
  id,
  className,
  children,
}: {
  tone?: Tone;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      id={id}
      role={tone === 'danger' ? 'alert' : undefined}
      className={classNames('rounded-lg border px-3 py-2.5 text-sm', TONES[tone], className)}
    >
      {children}
    </div>
  );
}
