'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyIcon } from '@/components/ui/icons';
import { Notice } from '@/components/ui/notice';
import { useClipboardCopy } from '@/components/ui/use-clipboard-copy';
import type { CheckEmail, PayWith, UsdcDeposit } from './payment-types';

/** USDC: where to send how much, and a button that plays the part of the customer's wallet. */
export function UsdcForm({
  deposit,
  pay,
  checkEmail,
  busy,
  pending,
}: {
  deposit: UsdcDeposit;
  pay: PayWith;
  checkEmail: CheckEmail;
  busy: boolean;
  pending: boolean;
}) {
  const [failure, setFailure] = useState<string | null>(null);

  async function simulateTransfer() {
    setFailure(null);
    if (!checkEmail('usdc')) return;
    const outcome = await pay({ method: 'usdc' }, 'usdc');
    if (outcome?.kind === 'failed') setFailure(outcome.message);
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* a data: URL made on the server from our own address: no network call, nothing merchant-given, and
            nothing for next/image to optimize */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src={deposit.qrDataUrl}
          alt={`QR code of the deposit address ${deposit.address}`}
          width={148}
          height={148}
          className="size-37 shrink-0 rounded-lg border border-gray-200 bg-white p-1"
        />
        <dl className="w-full min-w-0 space-y-3 text-sm">
          <div>
            <dt className="text-gray-600">Send exactly</dt>
            <dd className="text-lg font-semibold text-gray-900">{deposit.amount}</dd>
          </div>
          <div>
            <dt className="text-gray-600">Network</dt>
            <dd className="font-medium text-gray-900">{deposit.network}</dd>
          </div>
        </dl>
      </div>
      <dl>
        <dt className="text-sm text-gray-600">Deposit address</dt>
        <dd className="mt-1 rounded-lg border border-gray-200 bg-gray-50 px-3 py-2 font-mono text-[11px] leading-5 break-all text-gray-900 sm:text-xs">
          <code>{deposit.address}</code>
        </dd>
        <dd className="mt-2 flex items-start justify-between gap-3">
          <span className="text-xs text-gray-600">
            A sandbox address that nobody owns. Never send real funds to it.
          </span>
          <CopyAddressButton address={deposit.address} />
        </dd>
      </dl>
      {failure && <Notice tone="danger">{failure}</Notice>}
      <Button
        size="lg"
        className="w-full"
        onClick={simulateTransfer}
        pending={pending}
        pendingLabel="Confirming transfer…"
        disabled={busy}
      >
        Simulate transfer
      </Button>
    </div>
  );
}

/** Copy with the checkout's own glyph and a smaller button than the dashboard's CopyButton. */
function CopyAddressButton({ address }: { address: string }) {
  const { copy, word } = useClipboardCopy(address);
  return (
    <Button variant="secondary" onClick={copy} className="h-8 shrink-0 px-3" aria-label="Copy deposit address">
      <CopyIcon />
      <span aria-live="polite">{word}</span>
    </Button>
  );
}
