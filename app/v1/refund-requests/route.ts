import { parse } from '@/lib/api/parse';
import { apiRoute, created, ok, routes } from '@/lib/api/route';
import { createRefundRequestInput, listRefundRequestsQuery } from '@/lib/refunds/schemas';
import { createRefundRequest, listRefundRequests } from '@/lib/refunds/service';
import { serializeRefundRequest } from '@/lib/refunds/serialize';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // POST /v1/refund-requests – ask to refund part or all of a succeeded payment
  POST: apiRoute({ scope: 'refund_requests:write', idempotency: 'required' }, async ({ db, merchantId, body }) => {
    const input = parse(createRefundRequestInput, body);
    return created(serializeRefundRequest(await createRefundRequest(db, merchantId, input)));
  }),
  // GET /v1/refund-requests – list refund requests, newest first
  GET: apiRoute({ scope: 'refund_requests:read' }, async ({ db, merchantId, query }) =>
    ok(await listRefundRequests(db, merchantId, parse(listRefundRequestsQuery, query))),
  ),
});
