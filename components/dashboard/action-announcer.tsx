'use client';

import { createContext, use, useState, type ReactNode } from 'react';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/dashboard/form-state';

// What a row action did, said above the list rather than beside the row: after Approve the row may leave
// the filtered list, and after a refusal (the refund moved on meanwhile) the row loses its buttons, and
// with them anything said beside them.

type Announce = (state: FormState) => void;

const AnnounceContext = createContext<Announce | null>(null);

/** The announcer of the list around a row action, or null outside one. */
export function useAnnounce(): Announce | null {
  return use(AnnounceContext);
}

export function ActionAnnouncer({ children }: { children: ReactNode }) {
  const [said, setSaid] = useState<{ tone: 'ok' | 'error'; message: string } | null>(null);
  const announce: Announce = (state) => {
    if (state.status === 'ok') setSaid({ tone: 'ok', message: state.message });
    else if (state.status === 'error' && state.message) setSaid({ tone: 'error', message: state.message });
  };
  return (
    <AnnounceContext value={announce}>
      <div role="status" className={said?.tone === 'ok' ? 'px-4 pt-3' : undefined}>
        {said?.tone === 'ok' && <Notice tone="info">{said.message}</Notice>}
      </div>
      {said?.tone === 'error' && (
        <div className="px-4 pt-3">
          <Notice tone="danger">{said.message}</Notice>
        </div>
      )}
      {children}
    </AnnounceContext>
  );
}
