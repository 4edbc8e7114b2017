import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { PaymentLinkClosed, PayFrame } from '@/components/payment-links/pay-card';
import { PaymentLinkReceipt } from '@/components/payment-links/receipt';
import { describeMethodDetails } from '@/lib/dashboard/format';
import { db } from '@/lib/db';
import { formatMoney } from '@/lib/core/money';
import { getPaymentLinkReceipt, getPublicPaymentLink } from '@/lib/payment-links/checkout';

// GET /pay/{id}/receipt?session_id=cs_… – where a link without an after-payment URL sends the customer
// once paid. It shows a receipt only for a complete session of this very link.

export const metadata: Metadata = { title: 'Receipt', robots: { index: false, follow: false } };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PaymentLinkReceiptPage({ params, searchParams }: Props) {
  await connection();
  const { id } = await params;
  const sessionId = (await searchParams).session_id;
  const database = await db();
  const receipt = typeof sessionId === 'string' ? await getPaymentLinkReceipt(database, id, sessionId) : null;
  if (receipt) {
    const { payment } = receipt;
    return (
      <PayFrame merchantName={receipt.merchantName}>
        <PaymentLinkReceipt
          merchantName={receipt.merchantName}
          linkName={receipt.link.name}
          amountLabel={formatMoney(payment.amount, payment.currency)}
          methodLabel={describeMethodDetails(payment.paymentMethod, payment.methodDetails)}
          paidAt={payment.createdAt}
          paymentId={payment.id}
          receiptEmail={payment.customerEmail}
        />
      </PayFrame>
    );
  }
  const found = await getPublicPaymentLink(database, id);
  if (!found) notFound();
  return (
    <PayFrame merchantName={found.merchantName}>
      <h1 className="text-lg font-semibold break-words text-gray-900">{found.link.name}</h1>
      <div className="mt-4">
        <PaymentLinkClosed title="No payment to show">
          This page shows a receipt right after a payment through this link. We found no completed payment for this
          address, so nothing was charged here.
        </PaymentLinkClosed>
      </div>
      {found.link.active && (
        <a
          href={`/pay/${found.link.id}`}
          className="mt-5 inline-block text-sm font-medium text-accent-700 underline underline-offset-2 hover:text-accent-600"
        >
          Go to the payment page
        </a>
      )}
    </PayFrame>
  );
}
