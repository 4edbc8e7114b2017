'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { classNames } from '@/components/ui/class-names';
import { ClockIcon } from '@/components/ui/icons';
import { useCheckoutPaid } from './checkout-paid';

const WARN_BELOW_MS = 5 * 60 * 1000;

/**
 * Time left to pay. It counts from the server's own clock at render (renderedAt), so a customer whose
 * device clock is wrong still sees the true time left. At zero the page reloads and shows the expired state.
 * Once this page has paid there is no time limit left to show, so it goes.
 */
export function Countdown({ expiresAt, renderedAt }: { expiresAt: string; renderedAt: string }) {
  const { paid } = useCheckoutPaid();
  return paid ? null : <TimeLeft expiresAt={expiresAt} renderedAt={renderedAt} />;
}

function TimeLeft({ expiresAt, renderedAt }: { expiresAt: string; renderedAt: string }) {
  const router = useRouter();
  const leftAtRender = Date.parse(expiresAt) - Date.parse(renderedAt);
  const [leftMs, setLeftMs] = useState(leftAtRender);

  useEffect(() => {
    const mountedAt = performance.now();
    const tick = () => setLeftMs(Math.max(0, leftAtRender - (performance.now() - mountedAt)));
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [leftAtRender]);

  const expired = leftMs <= 0;
  useEffect(() => {
    if (expired) router.refresh();
  }, [expired, router]);

  return (
    <p
      role="timer"
      className={classNames(
        'inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset',
        leftMs < WARN_BELOW_MS
          ? 'bg-amber-50 text-amber-900 ring-amber-300'
          : 'bg-gray-100 text-gray-700 ring-gray-200',
      )}
    >
      <ClockIcon className="size-3.5" />
      {expired ? 'Expired' : `Expires in ${formatMinutesSeconds(leftMs)}`}
    </p>
  );
}

function formatMinutesSeconds(ms: number): string {
  const totalSeconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
