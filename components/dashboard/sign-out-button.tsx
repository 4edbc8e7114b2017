'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { SignOutIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';

/** next-auth's sign-out is a POST with its CSRF token; the cookie is cleared and we land on the sign-in page. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: '/login' });
      }}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-md whitespace-nowrap px-2 py-1 text-sm font-medium text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      {pending ? <Spinner /> : <SignOutIcon />}
      Sign out
    </button>
  );
}
