import type { ReactNode } from 'react';
import { CheckCircleIcon, ClockIcon, ReceiptIcon } from '@/components/ui/icons';
import type { HostedCheckout } from './checkout-view';

/** What replaces the payment form once the session cannot be paid: never a form, always a way back. */
export function ClosedCheckout({ checkout }: { checkout: HostedCheckout }) {
  const merchant = checkout.merchantName;
  if (checkout.state === 'complete') {
    return (
      <ClosedPanel
        icon={<CheckCircleIcon className="size-12 text-green-600" />}
        title="Payment received"
        link={{ href: checkout.paidReturnUrl, label: `Return to ${merchant}` }}
      >
        {merchant} has received {checkout.totalLabel}
        {checkout.paidWith && (
          <>
            , paid with <span className="whitespace-nowrap">{checkout.paidWith}</span>
          </>
        )}
        . There is nothing more to pay.
        {checkout.customerEmail && (
          <>
            {' '}
            A receipt would be sent to <span className="font-medium text-gray-900">{checkout.customerEmail}</span> (this
            sandbox sends no e-mail).
          </>
        )}
      </ClosedPanel>
    );
  }
  if (checkout.state === 'order_paid') {
    return (
      <ClosedPanel
        icon={<ReceiptIcon className="size-12 text-gray-500" />}
        title="This order has already been paid"
        link={{ href: checkout.backUrl, label: `Back to ${merchant}` }}
      >
        {merchant} already received payment for this order in another checkout, so this one cannot be paid. Nothing more
        was charged.
      </ClosedPanel>
    );
  }
  return (
    <ClosedPanel
      icon={<ClockIcon className="size-12 text-gray-500" />}
      title="This checkout has expired"
      link={{ href: checkout.backUrl, label: `Back to ${merchant}` }}
    >
      Checkout links last 30 minutes, and nothing was paid with this one. Go back to {merchant} to check out again.
    </ClosedPanel>
  );
}

function ClosedPanel({
  icon,
  title,
  link,
  children,
}: {
  icon: ReactNode;
  title: string;
  link: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center py-8 text-center">
      {icon}
      <h2 className="mt-4 text-xl font-semibold text-gray-900">{title}</h2>
      <p className="mt-2 max-w-sm text-sm break-words text-gray-600">{children}</p>
      <a
        href={link.href}
        className="mt-6 inline-flex h-11 items-center justify-center rounded-lg bg-accent-600 px-5 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
      >
        {link.label}
      </a>
    </div>
  );
}
