import { errors } from '@/lib/core/errors';
import type { RequestContext } from '@/lib/core/context';
import { metadataContaining, type Metadata } from '@/lib/core/metadata';
import { paginate } from '@/lib/core/pagination';
import type { PaymentStatus } from '@/lib/generated/prisma/client';
import { isId } from '@/lib/core/ids';
import { findPayment, findPaymentCursor, findPaymentsPage } from './repository';

export async function getPaymentOrThrow(context: RequestContext, id: string) {
  const { db: database, merchantId } = context;
  const payment = isId('payment', id) ? await findPayment(database, merchantId, id) : null;
  if (!payment) throw paymentMissing(id);
  return payment;
}

export function paymentMissing(id: string) {
  return errors.resourceMissing(`No such payment: '${id}'`, 'id', 'This payment was not found.');
}

export async function listPayments(
  context: RequestContext,
  query: {
    limit: number;
    starting_after?: string;
    order_reference?: string;
    status?: PaymentStatus;
    customer_email?: string;
    checkout_session_id?: string;
    metadata?: Metadata;
  },
) {
  const { db: database, merchantId } = context;
  const filters = {
    orderReference: query.order_reference,
    status: query.status,
    customerEmail: query.customer_email,
    checkoutSessionId: query.checkout_session_id,
    metadata: metadataContaining(query.metadata),
  };
  return paginate({
    limit: query.limit,
    startingAfter: query.starting_after,
    findCursor: (id) => findPaymentCursor(database, merchantId, id),
    findPage: ({ after, take }) => findPaymentsPage(database, merchantId, filters, { after, take }),
  });
}
