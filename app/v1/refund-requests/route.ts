import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { createRefundRequestOperation, listRefundRequestsOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { createRefundRequest, listRefundRequests } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createRefundRequestOperation, async ({ context, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    return answerOf(await createRefundRequest(context, body, { claimKey }), serializeRefundRequest);
  }),
  GET: apiRoute(listRefundRequestsOperation, async ({ context, query }) =>
    listObject(await listRefundRequests(context, query), serializeRefundRequest),
  ),
});
