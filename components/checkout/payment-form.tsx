'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition } from 'react';
import { TextField } from '@/components/ui/field';
import { LockIcon } from '@/components/ui/icons';
import { customerEmailError, emailRequired } from '@/lib/payments/hosted-form';
import { CardForm } from './card-form';
import { DeclinesExhausted } from './declines-exhausted';
import { useCheckoutPaid } from './checkout-paid';
import { InteracForm } from './interac-form';
import { METHOD_LABELS, MethodTabs, panelId, tabId, type Method } from './method-tabs';
import { PaymentReceived } from './payment-received';
import type { CheckEmail, PayFormInput, PayOutcome, PaymentFormSession, PayWith, UsdcDeposit } from './payment-types';
import { UsdcForm } from './usdc-form';

const EMAIL_ID = 'customer-email';

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
  const [paid, setPaid] = useState<{ returnUrl: string; receiptEmail: string | null } | null>(null);
  const [email, setEmail] = useState(session.customerEmail ?? '');
  const [emailError, setEmailError] = useState<string | undefined>();
  // set when the last decline the checkout takes happens here (with its reason), or before the page loaded
  const [declinesExhausted, setDeclinesExhausted] = useState<{ reason?: string } | null>(
    session.declinesExhausted ? {} : null,
  );
  const { markPaid } = useCheckoutPaid();
  const [, startTransition] = useTransition();
  // set synchronously, before React re-renders the disabled button: a double click sends one request
  const inFlight = useRef(false);

  /** The e-mail asked above the methods, checked with a method's own fields: false (and focused) when wrong. */
  const checkEmail: CheckEmail = (forMethod) => {
    const wrong = customerEmailError(email, forMethod);
    setEmailError(wrong);
    if (wrong) document.getElementById(EMAIL_ID)?.focus();
    return !wrong;
  };

  const pay: PayWith = async (input, control) => {
    if (inFlight.current || !checkEmail(input.method)) return null;
    inFlight.current = true;
    setPendingControl(control);
    let outcome: PayOutcome;
    try {
      outcome = await action({ ...input, email: email.trim() });
    } catch {
      outcome = { kind: 'failed', message: UNREACHABLE };
    }
    if (outcome.kind === 'paid') {
      setPaid({ returnUrl: outcome.returnUrl, receiptEmail: outcome.receiptEmail });
      markPaid();
      return null; // stays in flight: this page has paid
    }
    if (outcome.kind === 'invalid' && outcome.errors.email) {
      setEmailError(outcome.errors.email);
      document.getElementById(EMAIL_ID)?.focus();
    }
    if (outcome.kind === 'closed') {
      // paid in another tab, expired, or the order was paid elsewhere: the server page says which
      startTransition(() => router.refresh());
      return null;
    }
    inFlight.current = false;
    setPendingControl(null);
    if (outcome.kind === 'declines_exhausted') {
      setDeclinesExhausted({ reason: outcome.message });
      return null;
    }
    return outcome;
  };

  if (paid) return <PaymentReceived merchantName={session.merchantName} {...paid} />;

  const busy = pendingControl !== null;
  return (
    <div>
      <h2 className="mb-4 text-base font-semibold text-gray-900">
        {session.methods.length > 1 ? 'Choose how to pay' : `Pay with ${METHOD_LABELS[method]}`}
      </h2>
      {/* nothing left to pay with (no more cards, and no USDC) asks for nothing */}
      {!(declinesExhausted && !session.methods.includes('usdc')) && (
        <TextField
          id={EMAIL_ID}
          label={emailRequired(method) ? 'E-mail' : 'E-mail (optional)'}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          hint={`Where ${session.merchantName} would send your receipt.`}
          value={email}
          error={emailError}
          disabled={busy}
          className="mb-5"
          onChange={(event) => {
            setEmail(event.target.value);
            if (emailError) setEmailError(customerEmailError(event.target.value, method));
          }}
          onBlur={() => email.trim() && setEmailError(customerEmailError(email, method))}
        />
      )}
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
          {offered !== 'usdc' && declinesExhausted ? (
            <DeclinesExhausted
              method={offered}
              reason={declinesExhausted.reason}
              merchantName={session.merchantName}
              backUrl={session.backUrl}
              usdcOffered={session.methods.includes('usdc')}
            />
          ) : null}
          {offered === 'card' && !declinesExhausted && (
            <CardForm
              totalLabel={session.totalLabel}
              pay={pay}
              checkEmail={checkEmail}
              busy={busy}
              pending={pendingControl === 'card'}
            />
          )}
          {offered === 'usdc' && usdc && (
            <UsdcForm
              deposit={usdc}
              pay={pay}
              checkEmail={checkEmail}
              busy={busy}
              pending={pendingControl === 'usdc'}
            />
          )}
          {offered === 'interac' && !declinesExhausted && (
            <InteracForm pay={pay} checkEmail={checkEmail} busy={busy} pending={pendingControl} />
          )}
        </div>
      ))}
      <p className="mt-5 flex items-center justify-center gap-1.5 text-xs text-gray-600">
        <LockIcon className="size-3.5" />
        Sandbox checkout: nothing is charged and no money moves.
      </p>
    </div>
  );
}
