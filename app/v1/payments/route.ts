import { parse } from '@/lib/api/parse';
import { apiRoute, ok, routes } from '@/lib/api/route';
import { listPaymentsQuery } from '@/lib/payments/schemas';
import { listPayments } from '@/lib/payments/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/payments – list payments, newest first
  GET: apiRoute({ scope: 'payments:read' }, async ({ db, merchantId, query }) =>
    ok(await listPayments(db, merchantId, parse(listPaymentsQuery, query))),
  ),
});
