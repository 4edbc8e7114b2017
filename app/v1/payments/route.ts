import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { listPaymentsOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';
import { listPayments } from '@/lib/payments/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(listPaymentsOperation, async ({ context, query }) =>
    listObject(await listPayments(context, query), serializePayment),
  ),
});
