'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition } from 'react';
import { LockIcon } from '@/components/ui/icons';
import { CardForm } from './card-form';
import { useCheckoutPaid } from './checkout-paid';
import { InteracForm } from './interac-form';
import { METHOD_LABELS, MethodTabs, panelId, tabId, type Method } from './method-tabs';
import { PaymentReceived } from './payment-received';
import type { PayFormInput, PayOutcome, PaymentFormSession, PayWith, UsdcDeposit } from './payment-types';
import { UsdcForm } from './usdc-form';

const UNREACHABLE =
  "We couldn't reach the payment service. Check your connection and try again — an order is never paid twice.";

type PaymentFormProps = {
  session: PaymentFormSession;
  usdc: UsdcDeposit | null;
  action: (form: PayFormInput) => Promise<PayOutcome>;
};

export function PaymentForm({ session, usdc, action }: PaymentFormProps) {
  const router = useRouter();
  const [method, setMethod] = useState<Method>(session.methods[0]);
  const [pendingControl, setPendingControl] = useState<string | null>(null);
  const [paidReturnUrl, setPaidReturnUrl] = useState<string | null>(null);
  const { markPaid } = useCheckoutPaid();
  const [, startTransition] = useTransition();
  // set synchronously, before React re-renders the disabled button: a double click sends one request
  const inFlight = useRef(false);

  const pay: PayWith = async (input, control) => {
    if (inFlight.current) return null;
    inFlight.current = true;
    setPendingControl(control);
    let outcome: PayOutcome;
    try {
      outcome = await action(input);
    } catch {
      outcome = { kind: 'failed', message: UNREACHABLE };
    }
    if (outcome.kind === 'paid') {
      setPaidReturnUrl(outcome.returnUrl);
      markPaid();
      return null; // stays in flight: this page has paid
    }
    if (outcome.kind === 'closed') {
      // paid in another tab, expired, or the order was paid elsewhere: the server page says which
      startTransition(() => router.refresh());
      return null;
    }
    inFlight.current = false;
    setPendingControl(null);
    return outcome;
  };

  if (paidReturnUrl) return <PaymentReceived merchantName={session.merchantName} returnUrl={paidReturnUrl} />;

  const busy = pendingControl !== null;
  return (
    <div>
      <h2 className="mb-4 text-base font-semibold text-gray-900">
        {session.methods.length > 1 ? 'Choose how to pay' : `Pay with ${METHOD_LABELS[method]}`}
      </h2>
      {session.methods.length > 1 && <MethodTabs methods={session.methods} active={method} onChange={setMethod} />}
      {session.methods.map((offered) => (
        <div
          key={offered}
          id={panelId(offered)}
          role={session.methods.length > 1 ? 'tabpanel' : undefined}
          aria-labelledby={session.methods.length > 1 ? tabId(offered) : undefined}
          hidden={offered !== method}
          className="mt-5"
        >
          {offered === 'card' && (
            <CardForm totalLabel={session.totalLabel} pay={pay} busy={busy} pending={pendingControl === 'card'} />
          )}
          {offered === 'usdc' && usdc && (
            <UsdcForm deposit={usdc} pay={pay} busy={busy} pending={pendingControl === 'usdc'} />
          )}
          {offered === 'interac' && <InteracForm pay={pay} busy={busy} pending={pendingControl} />}
        </div>
      ))}
      <p className="mt-5 flex items-center justify-center gap-1.5 text-xs text-gray-600">
        <LockIcon className="size-3.5" />
        Sandbox checkout: nothing is charged and no money moves.
      </p>
    </div>
  );
}
