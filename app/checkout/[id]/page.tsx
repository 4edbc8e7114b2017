import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { CheckoutShell } from '@/components/checkout/checkout-shell';
import { ClosedCheckout } from '@/components/checkout/closed-checkout';
import { PaymentForm } from '@/components/checkout/payment-form';
import { payCheckout } from './actions';
import { loadHostedCheckout } from './load-checkout';

// GET /checkout/{id} – the hosted page where customers pay a checkout session (/docs#testing)

type Props = { params: Promise<{ id: string }> };

// one database read per request, shared by the metadata and the page
const loadCheckout = cache(async (id: string) => {
  await connection();
  return loadHostedCheckout(id);
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const checkout = await loadCheckout((await params).id);
  return {
    title: checkout ? `Pay ${checkout.merchantName}` : 'Checkout not found',
    robots: { index: false, follow: false },
  };
}

export default async function CheckoutPage({ params }: Props) {
  const checkout = await loadCheckout((await params).id);
  if (!checkout) notFound();

  return (
    <CheckoutShell checkout={checkout}>
      {checkout.state === 'open' ? (
        <PaymentForm
          session={{
            merchantName: checkout.merchantName,
            totalLabel: checkout.totalLabel,
            methods: checkout.methods,
            customerEmail: checkout.customerEmail,
            backUrl: checkout.backUrl,
            declinesExhausted: checkout.declinesExhausted,
          }}
          usdc={checkout.usdc}
          action={payCheckout.bind(null, checkout.id)}
        />
      ) : (
        <ClosedCheckout checkout={checkout} />
      )}
    </CheckoutShell>
  );
}
