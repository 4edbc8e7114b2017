import { apiRoute, routes } from '@/lib/http/route';
import { cancelRefundRequestOperation } from '@/lib/refunds/operations';
import { serializeRefundRequest } from '@/lib/refunds/serialize';
import { cancelRefundRequest } from '@/lib/refunds/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(cancelRefundRequestOperation, async ({ db, merchantId, params, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeRefundRequest);
    return serializeRefundRequest(await cancelRefundRequest(db, merchantId, params.id, { claimKey }));
  }),
});
