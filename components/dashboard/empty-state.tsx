import type { ReactNode } from 'react';

/** What an empty table or page will hold, and how to fill it. */
export function EmptyState({ icon, title, children, action }: { icon?: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      {icon && <div className="flex size-12 items-center justify-center rounded-full bg-accent-50 text-accent-700 [&_svg]:size-6">{icon}</div>}
      <h3 className="mt-4 text-base font-semibold text-gray-900">{title}</h3>
      {children && <div className="mt-1 max-w-md text-sm text-gray-600">{children}</div>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}
