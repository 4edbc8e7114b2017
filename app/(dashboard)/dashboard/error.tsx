'use client';

import { EmptyState } from '@/components/dashboard/empty-state';
import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';

// A page that failed to load keeps the navigation around it and offers to try again. The message stays
// generic: production errors reach the browser only as a digest, which matches the server log.
export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && 'digest' in error ? String((error as Error & { digest?: string }).digest ?? '') : '';
  return (
    <div role="alert" className="rounded-xl bg-white shadow-sm ring-1 ring-gray-200">
      <EmptyState
        icon={<AlertIcon />}
        title="This page could not be loaded"
        headingLevel={1}
        action={<Button onClick={() => retry()}>Try again</Button>}
      >
        Something went wrong on our side while reading your data. Nothing was changed.
        {digest && <span className="mt-2 block font-mono text-xs text-gray-500">Reference {digest}</span>}
      </EmptyState>
    </div>
  );
}
