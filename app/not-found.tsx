import type { Metadata } from 'next';
import Link from 'next/link';
import { SearchIcon } from '@/components/ui/icons';

export const metadata: Metadata = { title: 'Page not found' };

// Any address that is no page of ours: the hosted pages' card, with the ways back into the product. The
// checkout, payment link and dashboard pages have their own, closer to what was asked for.
export default function NotFound() {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col items-center px-4 pt-16 pb-12 text-center md:pt-24">
      <div className="w-full rounded-2xl bg-white px-6 py-10 shadow-sm ring-1 ring-gray-200">
        <SearchIcon className="mx-auto size-12 text-gray-500" />
        <h1 className="mt-4 text-xl font-semibold text-gray-900">Page not found</h1>
        <p className="mt-2 text-sm text-gray-600">
          There is nothing at this address. Check that you copied the whole link; a customer paying should go back to
          the store and start again.
        </p>
        <nav aria-label="Ways back" className="mt-6 flex flex-wrap justify-center gap-3">
          <Link
            href="/"
            className="inline-flex h-10 items-center rounded-lg bg-accent-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          >
            Sandbox Payments home
          </Link>
          <Link
            href="/docs"
            className="inline-flex h-10 items-center rounded-lg border border-gray-300 bg-white px-4 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          >
            API reference
          </Link>
        </nav>
        <p className="mt-6 text-xs text-gray-600">Error 404</p>
      </div>
    </main>
  );
}
