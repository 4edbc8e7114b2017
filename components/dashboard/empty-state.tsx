import type { ReactNode } from 'react';

/**
 * What an empty table or page will hold, and how to fill it. Its title is one heading level below the one it
 * sits under, so headings never skip a level: 2 (the default) under the page's h1, 3 inside a titled Panel,
 * 1 when it is all the page has (not found, could not load).
 */
export function EmptyState({
  icon,
  title,
  children,
  action,
  headingLevel = 2,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  headingLevel?: 1 | 2 | 3;
}) {
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1];
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      {icon && (
        <div className="flex size-12 items-center justify-center rounded-full bg-accent-50 text-accent-700 [&_svg]:size-6">
          {icon}
        </div>
      )}
      <Heading className="mt-4 text-base font-semibold text-gray-900">{title}</Heading>
      {children && <div className="mt-1 max-w-md text-sm text-gray-600">{children}</div>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}
