'use client';

import { useEffect, useRef } from 'react';
import { CheckCircleIcon } from '@/components/ui/icons';

const REDIRECT_AFTER_MS = 1500;

/** The short confirmation after paying, then on to the merchant's return_url (which carries session_id). */
export function PaymentReceived({
  merchantName,
  returnUrl,
  receiptEmail,
}: {
  merchantName: string;
  returnUrl: string;
  receiptEmail: string | null;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // on a phone with the order summary open, the confirmation could be below the fold
    panel.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    const timer = window.setTimeout(() => window.location.assign(returnUrl), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [returnUrl]);

  return (
    <div ref={panel} role="status" className="flex flex-col items-center py-8 text-center">
      <CheckCircleIcon className="size-14 text-green-600" />
      <h2 className="mt-4 text-xl font-semibold text-gray-900">Payment received</h2>
      {receiptEmail && <ReceiptNote email={receiptEmail} />}
      <p className="mt-1 text-sm text-gray-600">Returning you to {merchantName}…</p>
      <a
        href={returnUrl}
        className="mt-6 text-sm font-medium text-accent-700 underline underline-offset-2 hover:text-accent-600"
      >
        Continue to {merchantName} now
      </a>
    </div>
  );
}

/** Where a receipt would go: the sandbox sends no e-mail, and says so rather than let the customer wait for one. */
export function ReceiptNote({ email }: { email: string }) {
  return (
    <p className="mt-1 max-w-sm text-sm break-words text-gray-600">
      A receipt would be sent to <span className="font-medium text-gray-900">{email}</span> (this sandbox sends no
      e-mail).
    </p>
  );
}
