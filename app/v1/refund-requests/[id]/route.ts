import { apiRoute, ok, routes } from '@/lib/api/route';
import { getRefundRequestOrThrow } from '@/lib/refunds/service';
import { serializeRefundRequest } from '@/lib/refunds/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/refund-requests/{id} – read a refund request and where it is in its life cycle
  GET: apiRoute({ scope: 'refund_requests:read' }, async ({ db, merchantId, params }) =>
    ok(serializeRefundRequest(await getRefundRequestOrThrow(db, merchantId, params.id))),
  ),
});
