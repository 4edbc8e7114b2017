import type { ReactNode } from 'react';
import { MerchantMark } from '@/components/checkout/merchant-mark';
import { BankIcon, CardIcon, CoinIcon } from '@/components/ui/icons';
import type { PaymentMethod } from '@/lib/generated/prisma/client';

const METHODS: Record<PaymentMethod, { label: string; Icon: typeof CardIcon }> = {
  card: { label: 'Card', Icon: CardIcon },
  usdc: { label: 'USDC', Icon: CoinIcon },
  interac: { label: 'Interac', Icon: BankIcon },
};

/** The frame of every payment link page: one centred card in the hosted checkout's look. */
export function PayFrame({ merchantName, children }: { merchantName: string; children: ReactNode }) {
  return (
    <main className="mx-auto w-full max-w-md px-4 pt-6 pb-12 md:pt-16">
      <div className="flex min-w-0 items-center gap-2.5 px-1">
        <MerchantMark name={merchantName} />
        <span className="truncate font-semibold text-gray-900">{merchantName}</span>
      </div>
      <div className="mt-4 rounded-2xl bg-white px-5 py-6 shadow-sm ring-1 ring-gray-200 sm:px-7 sm:py-8">
        {children}
      </div>
    </main>
  );
}

/** What the link sells: name, description, price and the ways to pay, above the action (children). */
export function PaymentLinkOffer({
  name,
  description,
  priceLabel,
  methods,
  children,
}: {
  name: string;
  description: string | null;
  priceLabel: string;
  methods: PaymentMethod[];
  children: ReactNode;
}) {
  return (
    <>
      <h1 className="text-lg font-semibold break-words text-gray-900">{name}</h1>
      {description && <p className="mt-1 text-sm break-words whitespace-pre-line text-gray-600">{description}</p>}
      <p className="mt-5 text-4xl font-semibold tracking-tight text-gray-900">{priceLabel}</p>
      {methods.length > 0 && (
        <div className="mt-4">
          <h2 className="sr-only">Ways to pay</h2>
          <ul className="flex flex-wrap gap-2" aria-label="Ways to pay">
            {methods.map((method) => {
              const { label, Icon } = METHODS[method];
              return (
                <li
                  key={method}
                  className="inline-flex items-center gap-1.5 rounded-full bg-gray-100 px-2.5 py-1 text-xs font-medium text-gray-700"
                >
                  <Icon className="size-4 text-gray-600" />
                  {label}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <div className="mt-6">{children}</div>
    </>
  );
}

/** In place of "Pay" when the link cannot be paid: says why, and that nothing was charged. */
export function PaymentLinkClosed({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div role="status" className="rounded-xl bg-gray-50 px-4 py-4 ring-1 ring-gray-200">
      <p className="font-semibold text-gray-900">{title}</p>
      <p className="mt-1 text-sm text-gray-600">{children}</p>
    </div>
  );
}
