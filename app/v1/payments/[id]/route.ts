import { apiRoute, ok, routes } from '@/lib/api/route';
import { getPaymentOrThrow } from '@/lib/payments/service';
import { serializePayment } from '@/lib/payments/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/payments/{id} – read a payment: how a merchant confirms it was paid
  GET: apiRoute({ scope: 'payments:read' }, async ({ db, merchantId, params }) =>
    ok(serializePayment(await getPaymentOrThrow(db, merchantId, params.id))),
  ),
});
