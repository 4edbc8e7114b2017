'use client';

import { useLinkStatus } from 'next/link';
import type { ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';

// Detail pages wait for their data before answering (so that a foreign id is a real 404), so a click on
// a link to one shows this while the page is on its way. Always rendered at a fixed size: no layout shift.

/** A small spinner after a link's text, visible only while that link's page loads; it takes no width, so right-aligned figures stay aligned. */
export function PendingHint() {
  const { pending } = useLinkStatus();
  return (
    <Spinner
      className={`-mr-[18px] ml-1.5 inline size-3 align-[-1px] transition-opacity ${pending ? 'opacity-100' : 'opacity-0'}`}
    />
  );
}

/** The link's icon, turning into a spinner while its page loads. */
export function PendingIcon({ icon }: { icon: ReactNode }) {
  const { pending } = useLinkStatus();
  return pending ? <Spinner /> : <>{icon}</>;
}
