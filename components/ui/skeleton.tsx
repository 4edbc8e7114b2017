import { classNames } from './class-names';

/** A grey placeholder block that pulses while its content loads. Decorative. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={classNames('animate-pulse rounded-md bg-gray-200/80', className)} />;
}
