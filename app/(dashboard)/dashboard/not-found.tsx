import Link from 'next/link';
import { EmptyState } from '@/components/dashboard/empty-state';
import { AlertIcon } from '@/components/ui/icons';

// An id that does not exist and an id of another merchant look the same: not found.
export default function DashboardNotFound() {
  return (
    <div className="rounded-xl bg-white shadow-sm ring-1 ring-gray-200">
      <EmptyState
        icon={<AlertIcon />}
        title="Not found"
        headingLevel={1}
        action={
          <Link
            href="/dashboard"
            className="inline-flex h-10 items-center rounded-lg bg-accent-600 px-4 text-sm font-medium text-white hover:bg-accent-700"
          >
            Back to Home
          </Link>
        }
      >
        There is nothing at this address in your account. It may belong to another account, or the link may be
        incomplete.
      </EmptyState>
    </div>
  );
}
