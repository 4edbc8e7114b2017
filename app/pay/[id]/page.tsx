import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { PayButton } from '@/components/payment-links/pay-button';
import { PaymentLinkClosed, PaymentLinkOffer, PayFrame } from '@/components/payment-links/pay-card';
import { db } from '@/lib/db';
import { formatMoney } from '@/lib/core/money';
import { getPublicPaymentLink } from '@/lib/payment-links/checkout';
import { payThroughLink } from './actions';

// GET /pay/{id} – a payment link's public page: who sells what for how much, and "Pay" (/docs#objects)

type Props = { params: Promise<{ id: string }> };

// one database read per request, shared by the metadata and the page
const loadLink = cache(async (id: string) => {
  await connection();
  return getPublicPaymentLink(await db(), id);
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await loadLink((await params).id);
  return {
    title: found ? `${found.link.name} – ${found.merchantName}` : 'Payment link not found',
    robots: { index: false, follow: false },
  };
}

export default async function PaymentLinkPage({ params }: Props) {
  const found = await loadLink((await params).id);
  if (!found) notFound();
  const { link, merchantName, methods } = found;
  const price = formatMoney(link.amount, link.currency);

  return (
    <PayFrame merchantName={merchantName}>
      <PaymentLinkOffer
        name={link.name}
        description={link.description}
        priceLabel={price}
        methods={link.active ? methods : []}
      >
        {!link.active ? (
          <PaymentLinkClosed title="This link is no longer available">
            {merchantName} has turned this payment link off, so it cannot be paid. Nothing was charged.
          </PaymentLinkClosed>
        ) : methods.length === 0 ? (
          <PaymentLinkClosed title="Payments are paused">
            {merchantName} cannot take payments through this link right now. Nothing was charged.
          </PaymentLinkClosed>
        ) : (
          <PayButton
            action={payThroughLink.bind(null, link.id)}
            label={`Pay ${price}`}
            price={link.amount}
            quantity={
              link.quantityMinimum !== null && link.quantityMaximum !== null
                ? {
                    minimum: link.quantityMinimum,
                    maximum: link.quantityMaximum,
                    unitAmount: link.amount,
                    currency: link.currency,
                  }
                : undefined
            }
          />
        )}
      </PaymentLinkOffer>
    </PayFrame>
  );
}
