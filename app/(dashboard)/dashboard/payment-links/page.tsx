import type { Metadata } from 'next';
import { EmptyState } from '@/components/dashboard/empty-state';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { PaymentLinksTable } from '@/components/payment-links/links-table';
import { NewPaymentLinkButton } from '@/components/payment-links/new-link-button';
import { PaymentLinkIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { hrefWith, PAGE_SIZE, pageNumber, type SearchParams } from '@/lib/dashboard/list-params';
import { pageOfPaymentLinks, salesOfPaymentLinks } from '@/lib/payment-links/dashboard';
import { paymentLinkUrl } from '@/lib/payment-links/serialize';

export const metadata: Metadata = { title: 'Payment links' };

const PATH = '/dashboard/payment-links';

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { context } = await requireMerchant();
  const page = pageNumber(await searchParams);
  const { total, rows } = await pageOfPaymentLinks(context, {
    skip: (page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
  });
  const sales = await salesOfPaymentLinks(
    context,
    rows.map((link) => link.id),
  );
  const newLink = <NewPaymentLinkButton />;

  return (
    <>
      <PageHeader
        title="Payment links"
        description="Sell a fixed amount with no code: share a link, customers pay on your hosted checkout."
        action={total > 0 ? newLink : undefined}
      />
      <Panel flush>
        {total === 0 ? (
          <EmptyState icon={<PaymentLinkIcon />} title="No payment links yet" action={newLink}>
            A payment link is a page that sells one thing for a fixed price. Share it by e-mail, chat or a QR code;
            every payment shows up here and under Payments.
          </EmptyState>
        ) : (
          <>
            <PaymentLinksTable
              links={rows.map((link) => ({
                ...link,
                url: paymentLinkUrl(link.id),
                sales: sales.get(link.id) ?? { payments: 0, volume: 0 },
              }))}
            />
            <Pagination
              page={page}
              pageSize={PAGE_SIZE}
              total={total}
              hrefFor={(next) => hrefWith(PATH, {}, { page: next })}
            />
          </>
        )}
      </Panel>
    </>
  );
}
