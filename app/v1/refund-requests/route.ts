import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { createRefundRequestOperation, listRefundRequestsOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { createRefundRequest, listRefundRequests } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createRefundRequestOperation, async ({ db, merchantId, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    return serializeRefundRequest(await createRefundRequest(db, merchantId, body, { claimKey }));
  }),
  GET: apiRoute(listRefundRequestsOperation, async ({ db, merchantId, query }) =>
    listObject(await listRefundRequests(db, merchantId, query), serializeRefundRequest),
  ),
});
