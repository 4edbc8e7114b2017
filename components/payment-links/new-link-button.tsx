import Link from 'next/link';
import { PlusIcon } from '@/components/ui/icons';

/** The page's primary action, a link that looks like the primary button. */
export function NewPaymentLinkButton() {
  return (
    <Link
      href="/dashboard/payment-links/new"
      className="inline-flex h-10 items-center gap-2 rounded-lg bg-accent-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
    >
      <PlusIcon />
      New payment link
    </Link>
  );
}
