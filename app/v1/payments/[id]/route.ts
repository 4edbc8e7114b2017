import { apiRoute, routes } from '@/lib/http/route';
import { getPaymentOperation } from '@/lib/payments/operations';
import { serializePayment } from '@/lib/payments/serialize';
import { getPaymentOrThrow } from '@/lib/payments/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getPaymentOperation, async ({ context, params }) =>
    serializePayment(await getPaymentOrThrow(context, params.id)),
  ),
});
