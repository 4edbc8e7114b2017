'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useEffect } from 'react';

/**
 * Re-reads the server-rendered page every `everyMs` while `active` (the page says something is on its
 * way: a refund being authorized or completed by the provider), and stops once the page no longer says
 * so. router.refresh() keeps what is typed in forms and the scroll position. It waits while a dialog is
 * open, so a confirmation is never pulled away mid-read, and while the tab is hidden. Whether active or not,
 * the page is read again when its tab comes back into view: a refund approved in another tab shows as such.
 */
export function LiveRefresh({ active, everyMs = 1500 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const reread = () => {
      if (document.visibilityState !== 'visible' || document.querySelector('dialog[open]')) return;
      startTransition(() => router.refresh());
    };
    window.addEventListener('focus', reread);
    document.addEventListener('visibilitychange', reread);
    return () => {
      window.removeEventListener('focus', reread);
      document.removeEventListener('visibilitychange', reread);
    };
  }, [router]);
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== 'visible' || document.querySelector('dialog[open]')) return;
      startTransition(() => router.refresh());
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [active, everyMs, router]);
  return null;
}
