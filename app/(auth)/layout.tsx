import Link from 'next/link';
import type { ReactNode } from 'react';
import { ReportTimeZone } from '@/components/dashboard/time-zone';

// Sign-in and sign-up: one centred card under the product's name.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col px-4 pt-10 pb-16 sm:pt-16">
      <ReportTimeZone />
      <Link
        href="/"
        className="mx-auto flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-gray-900 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-lg bg-accent-600 text-sm text-white"
        >
          S
        </span>
        Sandbox Payments
      </Link>
      <div className="mt-8 rounded-2xl bg-white px-6 py-8 shadow-sm ring-1 ring-gray-200 sm:px-8">{children}</div>
    </main>
  );
}
