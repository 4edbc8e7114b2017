import type { RequestContext } from '@/lib/core/context';
import { countAndFindPaymentsOfLink } from '@/lib/payments/repository';
import { countAndFindPaymentLinks, sumSalesOfPaymentLinks, type LinkSales } from './repository';

// What the dashboard lists: a merchant's links, and the payments made through each (a payment's
// checkout session remembers the link it came from). Every query is scoped by the merchant.

export type { LinkSales };

export async function pageOfPaymentLinks(context: RequestContext, page: { skip: number; take: number }) {
  const { db: database, merchantId } = context;
  return countAndFindPaymentLinks(database, merchantId, page);
}

/** One page of the attempts (succeeded and failed) made through one link, newest first. */
export async function pageOfPaymentLinkPayments(
  context: RequestContext,
  linkId: string,
  page: { skip: number; take: number },
) {
  const { db: database, merchantId } = context;
  return countAndFindPaymentsOfLink(database, merchantId, linkId, page);
}

/** Succeeded payments and their sum per link, for the given links of one merchant. */
export async function salesOfPaymentLinks(context: RequestContext, linkIds: string[]): Promise<Map<string, LinkSales>> {
  const { db: database, merchantId } = context;
  if (linkIds.length === 0) return new Map();
  return sumSalesOfPaymentLinks(database, merchantId, linkIds);
}
