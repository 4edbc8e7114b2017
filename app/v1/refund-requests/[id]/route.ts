import { apiRoute, routes } from '@/lib/http/route';
import { getRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { getRefundRequestOrThrow } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getRefundRequestOperation, async ({ context, params }) =>
    serializeRefundRequest(await getRefundRequestOrThrow(context, params.id)),
  ),
});
