import type { ReactNode } from 'react';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { CheckoutPaidProvider } from './checkout-paid';
import type { HostedCheckout } from './checkout-view';
import { Countdown } from './countdown';
import { MerchantMark } from './merchant-mark';
import { OrderSummary } from './order-summary';
import { SummaryToggle } from './summary-toggle';

const HEADINGS: Record<HostedCheckout['state'], (merchant: string) => string> = {
  open: (merchant) => `Pay ${merchant}`,
  complete: (merchant) => `Paid to ${merchant}`,
  expired: (merchant) => `Order from ${merchant}`,
  order_paid: (merchant) => `Order from ${merchant}`,
};

/**
 * The hosted checkout frame: merchant and time left on top; the order on the left and the payment panel
 * (children) on the right from md up; on a phone one column with the order folded behind a toggle.
 */
export function CheckoutShell({ checkout, children }: { checkout: HostedCheckout; children: ReactNode }) {
  return (
    <CheckoutPaidProvider>
      <main className="mx-auto w-full max-w-5xl px-4 pt-4 pb-12 sm:px-6 md:pt-10">
        <header className="flex items-center justify-between gap-3">
          <MerchantLink name={checkout.merchantName} href={checkout.state === 'open' ? checkout.cancelUrl : null} />
          {checkout.state === 'open' && <Countdown expiresAt={checkout.expiresAt} renderedAt={checkout.renderedAt} />}
        </header>

        <div className="mt-6 grid gap-6 md:mt-10 md:grid-cols-2 md:gap-12 lg:gap-16">
          <section aria-labelledby="checkout-heading" className="min-w-0">
            <h1 id="checkout-heading" className="text-sm font-medium break-words text-gray-600">
              {HEADINGS[checkout.state](checkout.merchantName)}
            </h1>
            <p className="mt-1 text-3xl font-semibold tracking-tight text-gray-900 md:text-4xl">
              {checkout.totalLabel}
            </p>
            <div className="mt-5 md:mt-8">
              <SummaryToggle totalLabel={checkout.totalLabel}>
                <OrderSummary lines={checkout.lines} charges={checkout.charges} totalLabel={checkout.totalLabel} />
              </SummaryToggle>
            </div>
          </section>

          <section
            aria-label="Payment"
            className="min-w-0 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-gray-200 sm:p-6"
          >
            {children}
          </section>
        </div>
      </main>
    </CheckoutPaidProvider>
  );
}

/** "← Back to {merchant}" to the cancel_url while there is something to cancel; otherwise just the name. */
function MerchantLink({ name, href }: { name: string; href: string | null }) {
  const identity = (
    <>
      <MerchantMark name={name} />
      <span className="truncate font-semibold text-gray-900">{name}</span>
    </>
  );
  if (!href) return <div className="flex min-w-0 items-center gap-2.5 py-1">{identity}</div>;
  return (
    <a
      href={href}
      // named in words: the monogram is decoration, and "Back to" must not run into the name
      aria-label={`Back to ${name}`}
      className="group flex min-w-0 items-center gap-2 rounded-lg py-1 pr-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
    >
      <ArrowLeftIcon className="size-4 shrink-0 text-gray-600 transition-transform group-hover:-translate-x-0.5" />
      {identity}
    </a>
  );
}
