import type { Metadata } from 'next';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { PaymentLinkForm } from '@/components/payment-links/payment-link-form';
import { requireMerchant } from '@/lib/auth/session';
import { getMerchantOrThrow } from '@/lib/merchants/service';
import { createPaymentLinkAction } from '../actions';

export const metadata: Metadata = { title: 'New payment link' };

export default async function NewPaymentLinkPage() {
  const { context } = await requireMerchant();
  const merchant = await getMerchantOrThrow(context.db, context.merchantId);
  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/payment-links', label: 'Payment links' }}
        title="New payment link"
        description="One thing at a fixed price. You get a link and a QR code to share."
      />
      <Panel className="max-w-2xl">
        <PaymentLinkForm
          action={createPaymentLinkAction}
          approvedMethods={merchant.paymentMethods}
          approvedHosts={merchant.websites.map((website) => website.host)}
        />
      </Panel>
    </>
  );
}
