import { apiRoute, routes } from '@/lib/http/route';
import { completeRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { finishRefundNow } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(completeRefundRequestOperation, async ({ db, merchantId, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    const finished = await finishRefundNow(db, merchantId, params.id, { completed: true }, { claimKey });
    return serializeRefundRequest(finished);
  }),
});
