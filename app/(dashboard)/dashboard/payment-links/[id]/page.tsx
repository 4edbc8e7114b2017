import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ActionButton, ConfirmAction } from '@/components/dashboard/action-forms';
import { EmptyState } from '@/components/dashboard/empty-state';
import { IdText } from '@/components/dashboard/id-text';
import { MetadataList } from '@/components/dashboard/metadata-list';
import { DetailList, PageHeader, Panel } from '@/components/dashboard/page-header';
import { Pagination } from '@/components/dashboard/pagination';
import { PaymentsTable } from '@/components/dashboard/payments-table';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { EditPaymentLinkForm } from '@/components/payment-links/edit-form';
import { SharePaymentLink } from '@/components/payment-links/share-panel';
import { CardIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { METHOD_LABELS } from '@/lib/dashboard/format';
import { hrefWith, PAGE_SIZE, pageNumber, type SearchParams } from '@/lib/dashboard/list-params';
import { formatMoney } from '@/lib/core/money';
import { getMerchantOrThrow } from '@/lib/merchants/service';
import { offeredMethods } from '@/lib/payment-links/checkout';
import { pageOfPaymentLinkPayments } from '@/lib/payment-links/dashboard';
import { paymentLinkQrDataUrl } from '@/lib/payment-links/qr-code';
import { getPaymentLink } from '@/lib/payment-links/service';
import { paymentLinkUrl } from '@/lib/payment-links/serialize';
import { activatePaymentLinkAction, deactivatePaymentLinkAction, updatePaymentLinkAction } from '../actions';

export const metadata: Metadata = { title: 'Payment link' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

export default async function PaymentLinkPage({ params, searchParams }: Props) {
  const { context } = await requireMerchant();
  const { id } = await params;
  const page = pageNumber(await searchParams);
  const link = await getPaymentLink(context, id);
  if (!link) notFound();
  const [merchant, payments] = await Promise.all([
    getMerchantOrThrow(context.db, context.merchantId),
    pageOfPaymentLinkPayments(context, link.id, { skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE }),
  ]);
  const url = paymentLinkUrl(link.id);
  const price = formatMoney(link.amount, link.currency);
  const offered = offeredMethods(link, merchant.paymentMethods).map((method) => METHOD_LABELS[method]);
  const fields = { linkId: link.id };

  return (
    <>
      <PageHeader
        back={{ href: '/dashboard/payment-links', label: 'Payment links' }}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {link.name}
            <StatusBadge status={link.active ? 'active' : 'inactive'} />
          </span>
        }
        description={<IdText id={link.id} label="Copy payment link id" />}
        action={
          link.active ? (
            <ConfirmAction
              action={deactivatePaymentLinkAction}
              fields={fields}
              trigger="Deactivate"
              title="Deactivate this payment link?"
              description="Customers who open it are told it is no longer available and cannot pay. Checkouts already open can still be paid. You can activate it again later."
              confirmLabel="Deactivate link"
              pendingLabel="Deactivating…"
              triggerClassName="h-10 px-4"
            />
          ) : (
            <ActionButton
              action={activatePaymentLinkAction}
              fields={fields}
              pendingLabel="Activating…"
              variant="primary"
            >
              Activate
            </ActionButton>
          )
        }
      />
      {/* the payments table is as wide as the page's other tables, so it gets the whole width */}
      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
          <Panel title="Share" className="min-w-0">
            <SharePaymentLink
              url={url}
              qrDataUrl={await paymentLinkQrDataUrl(url)}
              linkId={link.id}
              active={link.active}
            />
          </Panel>
          <Panel id="details" title="Details" className="min-w-0">
            <DetailList
              items={[
                {
                  label: 'Price',
                  value: (
                    // the edit form is at the foot of the page, below the payments
                    <span className="flex flex-wrap items-baseline gap-x-3">
                      {price}
                      <a
                        href="#edit"
                        className="text-sm font-medium text-accent-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
                      >
                        Change<span className="sr-only"> the price or quantity</span>
                      </a>
                    </span>
                  ),
                },
                {
                  label: 'Quantity',
                  value:
                    link.quantityMinimum !== null && link.quantityMaximum !== null
                      ? `Customers choose ${link.quantityMinimum} to ${link.quantityMaximum}`
                      : 'One per payment',
                },
                {
                  label: 'Payment methods',
                  value:
                    link.paymentMethods.length > 0
                      ? offered.join(', ') || 'None of the chosen methods is approved any more'
                      : `Every approved method that takes ${link.currency}${offered.length ? ` (now ${offered.join(', ')})` : ' (none now)'}`,
                },
                { label: 'After payment', value: link.afterPaymentUrl ?? 'Our receipt page' },
                { label: 'Checkouts started', value: link.orderCount },
                { label: 'Created', value: <RelativeTime value={link.createdAt} exact /> },
              ]}
            />
          </Panel>
        </div>
        <Panel
          id="metadata"
          title="Metadata"
          description="Copied to each checkout session and payment made through this link."
        >
          <MetadataList metadata={link.metadata} />
        </Panel>
        <Panel title="Payments" description="Every attempt through this link, newest first." flush>
          {payments.total === 0 ? (
            <EmptyState icon={<CardIcon />} title="No payments yet" headingLevel={3}>
              Payments made through this link appear here, and under Payments with the order references {link.id}-1, -2,
              and so on.
            </EmptyState>
          ) : (
            <>
              <PaymentsTable payments={payments.rows} label="Payments through this link" />
              <Pagination
                page={page}
                pageSize={PAGE_SIZE}
                total={payments.total}
                hrefFor={(next) => hrefWith(`/dashboard/payment-links/${link.id}`, {}, { page: next })}
              />
            </>
          )}
        </Panel>
        <Panel id="edit" title="Edit" className="max-w-2xl">
          <EditPaymentLinkForm
            action={updatePaymentLinkAction}
            link={{
              id: link.id,
              name: link.name,
              description: link.description,
              amount: link.amount,
              currency: link.currency,
              quantityMinimum: link.quantityMinimum,
              quantityMaximum: link.quantityMaximum,
            }}
          />
        </Panel>
      </div>
    </>
  );
}
